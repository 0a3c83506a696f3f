import Core
import Foundation
import Storage

/// What other features may know of the health data (goals, the cycle), so that none of them
/// reads `health_sample` or `activity_summary` itself.
extension HealthStore {
  /// The last day up to and including `day` with a sample of `measure`'s type: a day after it
  /// has no data, which is not 0.
  public func lastDataDay(of measure: HealthTotals.Measure, upTo day: LocalDate) throws -> LocalDate? {
    try db.scalar(
      Date.self, "SELECT max(start) FROM health_sample WHERE account_id = ? AND type = ? AND start < ?", account.id,
      measure.type, day.adding(days: 1, in: calendar).start(in: calendar)
    ).map { LocalDate($0, in: calendar) }
  }

  /// The local day of the latest sample of an Apple Health type (`VitalKind.type`,
  /// `SleepState.type`) up to now: where an empty stretch of days can say the data is.
  public func lastSampleDay(type: String) throws -> LocalDate? {
    try db.scalar(
      Date.self, "SELECT max(start) FROM health_sample WHERE account_id = ? AND type = ? AND start <= ?", account.id,
      type, ISO8601.string(from: now)
    ).map { LocalDate($0, in: calendar) }
  }

  /// The Apple Watch ring goal of each day in `days` that has one, for the move ring (`.energy`)
  /// or the exercise ring (`.exercise`); other measures have no ring goal.
  public func ringGoals(for measure: HealthTotals.Measure, days: ClosedRange<LocalDate>) throws -> [LocalDate: Double] {
    let column: String
    switch measure {
    case .energy: column = "move_kcal_goal"
    case .exercise: column = "exercise_goal"
    default: return [:]
    }
    let rows = try db.query(
      "SELECT date, \(column) FROM activity_summary WHERE account_id = ? AND date BETWEEN ? AND ? AND \(column) > 0",
      account.id, days.lowerBound.description, days.upperBound.description
    ) { row in (LocalDate(try row.get("date", as: String.self)), try row.get(column, as: Double.self)) }
    return Dictionary(rows.compactMap { day, goal in day.map { ($0, goal) } }, uniquingKeysWith: { a, _ in a })
  }

  /// The days with menstrual flow in the imported samples ("None" is no flow), as `calendar`
  /// counts days.
  public func menstrualFlowDays(in calendar: Calendar) throws -> Set<LocalDate> {
    let samples = try db.query(
      "SELECT start, value FROM health_sample WHERE account_id = ? AND type = ? ORDER BY start", account.id,
      HealthType.menstrualFlow
    ) { (try $0.get(0, as: Date.self), $0[1]) }
    var days = Set<LocalDate>()
    for (start, value) in samples {
      if case .text(let text) = value, text.hasSuffix("None") { continue }
      days.insert(LocalDate(start, in: calendar))
    }
    return days
  }
}
