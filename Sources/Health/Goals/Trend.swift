import Core
import Foundation
import Storage

/// A cumulative measure's totals per day, week or month, each against the goal for it.
public struct Trend: Equatable, Sendable {
  public enum Period: Equatable, Sendable {
    case days(Int)
    case weeks(Int)
    case months(Int)

    public var count: Int {
      switch self {
      case .days(let n), .weeks(let n), .months(let n): return n
      }
    }
  }

  public struct Row: Equatable, Sendable {
    /// `2026-11-23`, `2026-W48` or `2026-11`.
    public let label: String
    public let from: LocalDate
    /// The period's last day, or today for the period under way.
    public let through: LocalDate
    public let total: Double
    /// The daily goals of the period's days so far, added up; nil when no day had one.
    public let goal: Double?
    /// Days whose own total reached their goal.
    public let daysMet: Int
    public var met: Bool? { goal.map { total >= $0 } }
  }

  public let measure: HealthTotals.Measure
  public let rows: [Row]

  /// The last `period.count` periods up to `today` (the current one included), oldest first;
  /// weeks start on Monday (ISO 8601).
  public static func rows(
    _ period: Period, today: LocalDate, totals: [LocalDate: Double], goal: (LocalDate) -> Double?
  ) -> [Row] {
    var rows: [Row] = []
    for back in stride(from: period.count - 1, through: 0, by: -1) {
      let (from, last, label) = bounds(period, back: back, today: today)
      let through = min(last, today)
      var total = 0.0
      var goalSum: Double?
      var met = 0
      var day = from
      while day <= through {
        let value = totals[day] ?? 0
        total += value
        if let g = goal(day) {
          goalSum = (goalSum ?? 0) + g
          if value >= g { met += 1 }
        }
        day = day.adding(days: 1)
      }
      rows.append(Row(label: label, from: from, through: through, total: total, goal: goalSum, daysMet: met))
    }
    return rows
  }

  /// The first day, last day and label of the period `back` periods before today's.
  static func bounds(_ period: Period, back: Int, today: LocalDate) -> (LocalDate, LocalDate, String) {
    switch period {
    case .days:
      let day = today.adding(days: -back)
      return (day, day, day.description)
    case .weeks:
      let monday = today.adding(days: 1 - today.weekday - 7 * back)
      let thursday = monday.adding(days: 3)  // names the ISO week and its year
      let week = (thursday.ordinal - LocalDate(year: thursday.year, month: 1, day: 1)!.ordinal) / 7 + 1
      return (monday, monday.adding(days: 6), String(format: "%04d-W%02d", thursday.year, week))
    case .months:
      var (year, month) = (today.year, today.month - back)
      while month < 1 {
        month += 12
        year -= 1
      }
      let first = LocalDate(year: year, month: month, day: 1)!
      let last = LocalDate(year: year, month: month, day: ISO8601.daysIn(month: month, year: year))!
      return (first, last, String(format: "%04d-%02d", year, month))
    }
  }
}
