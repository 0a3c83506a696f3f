import Core
import Foundation
import Storage

extension PeriodStore {
  public struct HealthImport: Equatable, Sendable {
    /// Periods found in the menstrual-flow samples.
    public var found = 0
    public var added = 0
    /// Already logged with the same days.
    public var unchanged = 0
    /// Overlapping a period logged differently: left alone, listed by start.
    public var conflicts: [String] = []
  }

  /// Turns imported Apple Health menstrual-flow samples into periods: flow on consecutive days
  /// (a day without flow ends a period; "None" is no flow) makes one period. Importing again
  /// changes nothing; a period that overlaps one logged by hand is left to the user.
  public func importFromHealth(calendar: Calendar) throws -> HealthImport {
    let samples = try db.query(
      "SELECT start, value FROM health_sample WHERE account_id = ? AND type = ? ORDER BY start", account.id,
      HealthType.menstrualFlow
    ) { (try $0.get(0, as: Date.self), $0[1]) }
    var days = Set<LocalDate>()
    for (start, value) in samples {
      if case .text(let text) = value, text.hasSuffix("None") { continue }
      days.insert(LocalDate(start, in: calendar))
    }
    var runs: [(LocalDate, LocalDate)] = []
    for day in days.sorted() {
      if let last = runs.last, last.1.adding(days: 1) == day {
        runs[runs.count - 1].1 = day
      } else {
        runs.append((day, day))
      }
    }
    var result = HealthImport(found: runs.count)
    for (start, end) in runs where start <= today {
      let existing = try list()
      if existing.contains(where: { $0.start == start && $0.end == end }) {
        result.unchanged += 1
        continue
      }
      if existing.contains(where: { $0.start == start }) {
        result.conflicts.append(start.description)
        continue
      }
      do {
        // An ongoing run (flow up to today) is logged with its last day so far.
        try log(start: start, end: min(end, today))
        result.added += 1
      } catch let error as CycleError {
        switch error {
        case .overlaps, .stillOngoing: result.conflicts.append(start.description)
        default: throw error
        }
      }
    }
    return result
  }
}
