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
        let goals = try health.ringGoals(for: measure, days: first...today)
        daily = { goals[$0] }
      }
    }
    return Trend(
      measure: measure, rows: Trend.rows(period, today: today, totals: totals, goal: daily),
      lastData: try health.lastDataDay(of: measure, upTo: today))
  }
}
