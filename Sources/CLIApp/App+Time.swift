import CLICore
import Core
import Foundation
import Storage

extension App {
  /// Places a typed date-time on the time line: its own offset if it has one, else the local
  /// zone; `yesterday 20:00` and `+2d` from the clock. A date without a time is refused (a
  /// donation or a dose "on the 10th" at midnight is a mistake waiting to happen) unless
  /// `bareDateIsMidnight`, for the edges of a window.
  public func instant(_ argument: DateTimeArgument) throws -> Date {
    try instant(argument, bareDateIsMidnight: false)
  }

  /// `now` places `yesterday 20:00` and `+2d` for a server that outlives the moment it began.
  public func instant(_ argument: DateTimeArgument, bareDateIsMidnight: Bool, now: Date? = nil) throws -> Date {
    let date = try place(argument, bareDateIsMidnight: bareDateIsMidnight, now: now ?? self.now)
    // No health record is from before 1900 or after 2200: such a year is a typo (0001 for 2001).
    guard (1900...2200).contains(calendar.component(.year, from: date)) else {
      throw CLIError.implausibleYear(argument.text)
    }
    return date
  }

  private func place(_ argument: DateTimeArgument, bareDateIsMidnight: Bool, now: Date) throws -> Date {
    switch argument.form {
    case .fields(let f):
      if let offset = f.offset { return ISO8601.date(from: f, offset: offset) }
      return try local(
        argument.text, year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second)
    case .date(let y, let m, let d):
      guard bareDateIsMidnight else { throw CLIError.timeMissing(argument.text) }
      return try local(argument.text, year: y, month: m, day: d, hour: 0, minute: 0, second: 0)
    case .timeOfDay(let days, let hour, let minute):
      let day = LocalDate(now, in: calendar).adding(days: days)
      return try local(
        argument.text, year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: 0)
    case .fromNow(let seconds):
      return now.addingTimeInterval(seconds)
    }
  }

  private func local(_ text: String, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) throws
    -> Date
  {
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard let date = calendar.date(from: components),
      calendar.dateComponents([.hour, .minute], from: date) == DateComponents(hour: hour, minute: minute)
    else { throw CLIError.nonexistentLocalTime(text, zone: timeZone.identifier) }
    return date
  }

  public var today: LocalDate { LocalDate(now, in: calendar) }

  /// `2026-12-01T09:30:00+01:00`: what JSON output uses for instants.
  public func iso(_ date: Date?) -> JSON {
    date.map { .string(ISO8601.string(from: $0, timeZone: timeZone)) } ?? .null
  }

  /// `today 14:00`, `tomorrow 09:30`, `Thu 26 Nov 14:00`, `Tue 1 Dec 2027 09:30` a year
  /// away: what people read (JSON and CSV keep ISO 8601).
  public func human(_ date: Date?) -> String {
    guard let date else { return "-" }
    return HumanText(now: now, calendar: calendar).time(date)
  }

  /// `Tue 1 Dec 2026 09:30`, the date in full: a heading's. Built by hand: a DateFormatter
  /// costs milliseconds to load its locale data, a noticeable share of a short command.
  public func fullDate(_ date: Date?) -> String {
    guard let date else { return "-" }
    let c = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute], from: date)
    let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(weekdays[c.weekday! - 1]) \(c.day!) \(months[c.month! - 1]) \(c.year!) "
      + String(format: "%02d:%02d", c.hour!, c.minute!)
  }
}
