import Core
import Foundation
import Storage

extension App {
  /// Places a typed date-time on the time line: its own offset if it has one, else the local zone.
  public func instant(_ argument: DateTimeArgument) throws -> Date {
    let f = argument.fields
    if let offset = f.offset { return ISO8601.date(from: f, offset: offset) }
    let components = DateComponents(
      year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second)
    guard let date = calendar.date(from: components),
      calendar.dateComponents([.hour, .minute], from: date) == DateComponents(hour: f.hour, minute: f.minute)
    else { throw CLIError.nonexistentLocalTime(argument.text, zone: timeZone.identifier) }
    return date
  }

  public var today: LocalDate { LocalDate(now, in: calendar) }

  /// `2026-12-01T09:30:00+01:00`: what JSON output uses for instants.
  public func iso(_ date: Date?) -> JSON {
    date.map { .string(ISO8601.string(from: $0, timeZone: timeZone)) } ?? .null
  }

  /// `Tue 1 Dec 2026 09:30`: what people read. Built by hand: a DateFormatter costs
  /// milliseconds to load its locale data, a noticeable share of a short command.
  public func human(_ date: Date?) -> String {
    guard let date else { return "-" }
    let c = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute], from: date)
    let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(weekdays[c.weekday! - 1]) \(c.day!) \(months[c.month! - 1]) \(c.year!) "
      + String(format: "%02d:%02d", c.hour!, c.minute!)
  }
}
