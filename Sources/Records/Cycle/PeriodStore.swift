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
    try db.query("SELECT \(Self.periods.list()) FROM period WHERE account_id = ? ORDER BY start", account.id) {
      row -> Period? in
      // An end before the start (written before the rule) ends the period on its first day.
      try Period.shape.read(row).map { period in
        var period = period
        period.end = period.end.map { max($0, period.start) }
        return period
      }
    }.compactMap { $0 }
  }

  /// The days periods began, oldest first: what another feature may know of the cycle (a
  /// donation is not booked just after one began).
  public func startDays() throws -> [LocalDate] { try list().map(\.start) }

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
      // Both days, as logged: a log on another device of the same period meets this one whole.
      try replica.write(.period, id: period.id, Period.shape.fields(period, Period.logged))
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

}
