import Core
import Foundation
import Storage

extension GoalStore {
  /// `measure`'s trend over `period` up to `today`. The goal for a day is `goal` when given;
  /// else for steps and distance the smallest target among the goals of that type, and for
  /// energy and exercise that day's Apple Watch ring goal.
  public func trend(_ measure: HealthTotals.Measure, _ period: Trend.Period, today: LocalDate, goal: Double?) throws
    -> Trend
  {
    let first = Trend.bounds(period, back: period.count - 1, today: today).0
    let counted = try HealthTotals(db: db, accountID: account.id, now: now).counted(
      [measure], days: first...today, in: calendar)
    // A day counts as having data when a source counted something in it: a UTC day's quarters
    // also reach an hour into the next local day, so a day may appear with nothing in it.
    let totals = counted.mapValues { $0[measure].map { $0.values.reduce(0, +) } ?? 0 }.filter { $0.value > 0 }
    let daily: (LocalDate) -> Double?
    if let goal {
      daily = { _ in goal }
    } else {
      switch measure {
      case .steps, .distance:
        let kind: Goal.Kind = measure == .steps ? .steps : .walkingDistance
        let target = try list().filter { $0.kind == kind }.map(\.target).min()
        daily = { _ in target }
      case .energy, .exercise:
        let column = measure == .energy ? "move_kcal_goal" : "exercise_goal"
        let goals = Dictionary(
          try db.query(
            "SELECT date, \(column) FROM activity_summary WHERE account_id = ? AND date BETWEEN ? AND ? AND \(column) > 0",
            account.id, first.description, today.description
          ) { row in (LocalDate(try row.get("date", as: String.self)), try row.get(column, as: Double.self)) }
          .compactMap { day, goal in day.map { ($0, goal) } }, uniquingKeysWith: { a, _ in a })
        daily = { goals[$0] }
      }
    }
    let last = try db.scalar(
      Date.self, "SELECT max(start) FROM health_sample WHERE account_id = ? AND type = ? AND start < ?", account.id,
      measure.type, today.adding(days: 1, in: calendar).start(in: calendar))
    return Trend(
      measure: measure, rows: Trend.rows(period, today: today, totals: totals, goal: daily),
      lastData: last.map { LocalDate($0, in: calendar) })
  }
}
