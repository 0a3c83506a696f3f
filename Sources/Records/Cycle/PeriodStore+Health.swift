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

  /// Turns the days with menstrual flow (`HealthStore.menstrualFlowDays`) into periods:
  /// consecutive days make one period. Importing again changes nothing; a period that overlaps
  /// one logged by hand is left to the user.
  public func importFromHealth(flowDays days: Set<LocalDate>) throws -> HealthImport {
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
