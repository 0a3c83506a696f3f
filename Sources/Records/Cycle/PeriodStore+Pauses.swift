import Core
import Foundation
import Replication
import Storage

extension PeriodStore {
  public func pauses() throws -> [CyclePause] {
    try db.query(
      "SELECT \(Self.pauses.list()) FROM cycle_pause WHERE account_id = ? ORDER BY start", account.id,
      row: CyclePause.shape.record)
  }

  /// Starts a pause, or changes the end and reason of the one that starts on `from`. Pauses may
  /// not overlap; an open one must be the last.
  @discardableResult
  public func pause(from: LocalDate, to: LocalDate?, reason: CyclePause.Reason) throws -> CyclePause {
    if let to, to < from { throw CycleError.endBeforeStart(start: from.description, end: to.description) }
    return try db.transaction { _ in
      let pauses = try pauses()
      let old = pauses.first { $0.from == from }
      var pause = old ?? CyclePause(from: from, to: to, reason: reason)
      pause.to = to
      pause.reason = reason
      for other in pauses where other.id != pause.id && other.overlaps(pause.from...(pause.to ?? .distantFuture)) {
        throw CycleError.pauseOverlaps(start: other.from.description, end: other.to?.description)
      }
      let fields = CyclePause.shape.changes(from: old, to: pause, CyclePause.synced)
      if !fields.isEmpty { try replica.write(.cyclePause, id: pause.id, fields) }
      return pause
    }
  }

  /// Deletes the pause that starts on `from` ('vital undo' brings it back).
  @discardableResult
  public func deletePause(from: LocalDate) throws -> CyclePause {
    guard let pause = try pauses().first(where: { $0.from == from }) else {
      throw CycleError.noPause(from.description)
    }
    try replica.delete(.cyclePause, id: pause.id)
    return pause
  }

  /// Leaves the cycle that starts with the period starting on `start` out of the statistics, or
  /// takes it back in.
  @discardableResult
  public func setExcluded(start: LocalDate, _ excluded: Bool) throws -> Period {
    guard var period = try list().first(where: { $0.start == start }) else {
      throw CycleError.notFound(start: start.description)
    }
    if period.excluded != excluded {
      period.excluded = excluded
      try replica.write(.period, id: period.id, ["excluded": Period.shape.value(period, \.excluded)])
    }
    return period
  }
}
