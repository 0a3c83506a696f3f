import Core
import Foundation
import Replication
import Storage

extension PeriodStore {
  public func pauses() throws -> [CyclePause] {
    try db.query(
      #"SELECT id, start, "end", reason FROM cycle_pause WHERE account_id = ? ORDER BY start"#, account.id
    ) { row in
      guard let from = LocalDate(try row.get("start", as: String.self)),
        let reason = CyclePause.Reason(rawValue: try row.get("reason"))
      else { throw StorageError.typeMismatch(column: "start/reason", expected: "a date and a reason", sql: nil) }
      return CyclePause(
        id: try row.get("id"), from: from, to: try row.get("end", as: String?.self).flatMap(LocalDate.init),
        reason: reason)
    }
  }

  /// Starts a pause, or changes the end and reason of the one that starts on `from`. Pauses may
  /// not overlap; an open one must be the last.
  @discardableResult
  public func pause(from: LocalDate, to: LocalDate?, reason: CyclePause.Reason) throws -> CyclePause {
    if let to, to < from { throw CycleError.endBeforeStart(start: from.description, end: to.description) }
    return try db.transaction { _ in
      let pauses = try pauses()
      var pause = pauses.first { $0.from == from } ?? CyclePause(from: from, to: to, reason: reason)
      pause.to = to
      pause.reason = reason
      for other in pauses where other.id != pause.id && other.overlaps(pause.from...(pause.to ?? .distantFuture)) {
        throw CycleError.pauseOverlaps(start: other.from.description, end: other.to?.description)
      }
      try replica.write(
        .cyclePause, id: pause.id,
        [
          "start": .text(pause.from.description), "end": pause.to.map(\.description).databaseValue,
          "reason": .text(reason.rawValue),
        ])
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
      try replica.write(.period, id: period.id, ["excluded": .integer(excluded ? 1 : 0)])
    }
    return period
  }
}
