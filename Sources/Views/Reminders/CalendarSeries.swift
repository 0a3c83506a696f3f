import Core
import Foundation
import Records

/// A reminder that repeats at one wall-clock time of one zone: written to a calendar as one
/// event with a rule (`RRULE`) instead of one event per day.
public struct CalendarSeries: Equatable, Sendable {
  public let uid: String
  public let source: ReminderSource
  public let title: String
  public let body: String
  /// The IANA zone whose wall clock the times follow (pinned, or the local zone at export).
  public let zone: String
  public let first: LocalDate
  public let time: TimeOfDay
  /// nil: every day.
  public let weekdays: [Weekday]?
  /// The series ends before this instant; nil: it goes on.
  public let end: Date?
  /// Occurrences left out, by their day: recorded, paused, moved or beyond the window's reach.
  public let excluded: [LocalDate]
  public let duration: TimeInterval
}

/// What a calendar file holds: repeating series and one-off items.
public struct CalendarFeed: Sendable {
  public let series: [CalendarSeries]
  public let items: [CalendarItem]

  public var count: Int { series.count + items.count }
}

/// How RFC 5545 places a wall-clock time of a zone on the time line: a time the clocks skip is
/// read with the offset before the gap, a time they repeat as its first occurrence.
public enum WallClock {
  public static func instant(_ day: LocalDate, _ time: TimeOfDay, in zone: TimeZone) -> Date {
    let wall = Double(day.ordinal) * 86_400 + Double(time.hour * 3600 + time.minute * 60)
    let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400))
    let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 86_400))
    let valid = Set([before, after]).map { Date(timeIntervalSince1970: wall - Double($0)) }
      .filter { zone.secondsFromGMT(for: $0) == Int(wall - $0.timeIntervalSince1970) }
    return valid.min() ?? Date(timeIntervalSince1970: wall - Double(before))
  }
}
