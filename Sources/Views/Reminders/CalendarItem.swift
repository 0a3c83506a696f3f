import Core
import Foundation
import Records

/// A thing that reminds: an appointment, a dose, a predicted period, a refill, a phase change.
/// Its alarms are the reminders; `vital reminders ics` writes the item with its alarms.
public struct CalendarItem: Equatable, Sendable {
  public enum When: Equatable, Sendable {
    case instant(Date, duration: TimeInterval)
    /// A whole local day (predicted periods).
    case day(LocalDate)
  }

  public struct Alarm: Equatable, Sendable {
    /// When it fires.
    public let at: Date
    /// The same moment as an RFC 5545 trigger relative to the item's start, e.g. `-P1D`.
    public let trigger: String
  }

  /// Stable across runs and exports: the same item always has the same uid.
  public let uid: String
  public let source: ReminderSource
  public let title: String
  public let body: String
  public let location: String?
  public let when: When
  public let alarms: [Alarm]
}

/// One alarm of one item: what `reminders list` shows and `reminders notify` delivers.
public struct Reminder: Equatable, Sendable {
  public let at: Date
  public let source: ReminderSource
  public let title: String
  public let body: String
  /// The item's uid.
  public let ref: String
  /// What the delivery log remembers: the item, the alarm and its time, so a moved item
  /// reminds again.
  public var key: String { "\(ref)|\(Int64(at.timeIntervalSince1970))" }
}

extension CalendarItem {
  /// When the item begins (a whole day begins at its first instant in UTC, close enough for a window).
  var start: Date {
    switch when {
    case .instant(let at, _): return at
    case .day(let day): return Date(timeIntervalSince1970: Double(day.ordinal) * 86_400)
    }
  }

  public var reminders: [Reminder] {
    alarms.map { Reminder(at: $0.at, source: source, title: title, body: body, ref: uid) }
  }
}
