import Core
import Foundation
import Replication
import Storage

/// One account's logged periods. Every write goes through the Replica, so periods sync.
public struct PeriodStore: AccountScoped {

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  var today: LocalDate { scope.today }

  public func list() throws -> [Period] {
    // A row whose days no rule lets in (an older Vital's) is left out: every prediction and
    // view reads this list, and one bad row must not stop them.
    try db.query(
      "SELECT \(Self.periods.list(["id", "start", "end", "excluded"])) FROM period WHERE account_id = ? ORDER BY start",
      account.id
    ) { row -> Period? in
      guard let startText: String = row.valid("start", in: .period), let start = LocalDate(startText) else {
        return nil
      }
      let end = (row.valid("end", in: .period) as String?).flatMap(LocalDate.init)
      return Period(
        id: try row.get("id"), start: start, end: end.map { max($0, start) },
        excluded: (row.valid("excluded", in: .period) as Int64?) == 1)
    }.compactMap { $0 }
  }

  /// Logs a period, or sets the end of the one that starts on `start`. Overlaps with another
  /// period, a reversed range and future days are refused.
  @discardableResult
  public func log(start: LocalDate, end: LocalDate?, id: String? = nil) throws -> Period {
    return try db.transaction { _ in
      let periods = try list()
      var period =
        periods.first { $0.start == start } ?? id.map { Period(id: $0, start: start, end: end) }
        ?? Period(start: start, end: end)
      period.end = end
      try check(period, among: periods)
      try replica.write(
        .period, id: period.id,
        ["start": .text(period.start.description), "end": period.end.map(\.description).databaseValue])
      return period
    }
  }

  /// What every period must be, logged or edited: in order, not in the future, overlapping no
  /// other, and not after one still ongoing.
  func check(_ period: Period, among periods: [Period]) throws {
    let (start, end) = (period.start, period.end)
    if let end, end < start { throw CycleError.endBeforeStart(start: start.description, end: end.description) }
    for day in [start, end].compactMap({ $0 }) where day > today { throw CycleError.inTheFuture(day.description) }
    let range = start...(end ?? LocalDate.distantFuture)
    for other in periods where other.id != period.id {
      let otherRange = other.start...(other.end ?? LocalDate.distantFuture)
      if other.end == nil, other.start < start {
        throw CycleError.stillOngoing(start: other.start.description)
      }
      if range.overlaps(otherRange) {
        throw CycleError.overlaps(start: other.start.description, end: other.end?.description)
      }
    }
  }

  @discardableResult
  public func remove(start: LocalDate) throws -> Period {
    guard let period = try list().first(where: { $0.start == start }) else {
      throw CycleError.notFound(start: start.description)
    }
    try replica.delete(.period, id: period.id)
    return period
  }

  public func predict(count: Int) throws -> CyclePrediction {
    guard (1...24).contains(count) else { throw CycleError.badCount }
    return try CyclePrediction.predict(periods: list(), pauses: pauses(), today: today, count: count)
  }

  var replica: Replica { Replica(db: db, accountID: account.id, now: now) }
}
