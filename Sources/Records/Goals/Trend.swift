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
    /// The days with data added up; nil when no source had a sample on any day of the period:
    /// no data is not 0.
    public let total: Double?
    /// Days with a sample from any source.
    public let daysWithData: Int
    /// The daily goals of the days counted (those with data; all of them when none has),
    /// added up; nil when no day had one.
    public let goal: Double?
    /// Days whose own total reached their goal.
    public let daysMet: Int
    /// Whether the days with data met their goals; nil without data or without a goal.
    public var met: Bool? {
      guard let total, let goal else { return nil }
      return total >= goal
    }
  }

  public let measure: HealthTotals.Measure
  public let rows: [Row]
  /// The last day with a sample of this measure, today or before; nil when there is none.
  public var lastData: LocalDate?

  public init(measure: HealthTotals.Measure, rows: [Row], lastData: LocalDate? = nil) {
    self.measure = measure
    self.rows = rows
    self.lastData = lastData
  }

  /// The last `period.count` periods up to `today` (the current one included), oldest first;
  /// weeks start on Monday (ISO 8601). A day missing from `totals` has no data.
  public static func rows(
    _ period: Period, today: LocalDate, totals: [LocalDate: Double], goal: (LocalDate) -> Double?
  ) -> [Row] {
    var rows: [Row] = []
    for back in stride(from: period.count - 1, through: 0, by: -1) {
      let (from, last, label) = bounds(period, back: back, today: today)
      let through = min(last, today)
      var total: Double?
      var withData = 0
      var goalSum: Double?
      var allGoals: Double?
      var met = 0
      var day = from
      while day <= through {
        let g = goal(day)
        if let g { allGoals = (allGoals ?? 0) + g }
        if let value = totals[day] {
          total = (total ?? 0) + value
          withData += 1
          if let g {
            goalSum = (goalSum ?? 0) + g
            if value >= g { met += 1 }
          }
        }
        day = day.adding(days: 1)
      }
      rows.append(
        Row(
          label: label, from: from, through: through, total: total, daysWithData: withData,
          goal: withData > 0 ? goalSum : allGoals, daysMet: met))
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
