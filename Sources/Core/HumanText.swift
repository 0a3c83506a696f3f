import Foundation

/// Text for people to read: counts with their nouns, and dates and times said as a person says
/// them relative to today. JSON and CSV keep ISO 8601; this is for the terminal and the report.
public struct HumanText: Sendable {
  public let now: Date
  public let calendar: Calendar

  public init(now: Date, calendar: Calendar) {
    self.now = now
    self.calendar = calendar
  }

  public static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  public static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  public static let fullMonths = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December",
  ]

  /// `text` and spaces after it up to `width` characters. Longer text stays whole, where
  /// Foundation's `padding(toLength:)` cuts it (and bridges to NSString each time: slow in a
  /// table of a year's rows).
  public static func padded(_ text: String, to width: Int) -> String {
    let count = text.count
    return count >= width ? text : text + String(repeating: " ", count: width - count)
  }

  /// `07`: at least two digits, without `String(format:)`'s cost per call.
  public static func twoDigits(_ n: Int) -> String { (0..<10).contains(n) ? "0\(n)" : "\(n)" }

  /// `value` with `decimals` places (0 to 6), half away from zero as a person rounds the number
  /// written (5.55 to 5.6, where `String(format: "%.1f")` rounds the double 5.5499… to 5.5), at a
  /// tenth of its cost; values from 10^12 on through `String(format:)`.
  public static func fixed(_ value: Double, decimals: Int) -> String {
    guard (0...6).contains(decimals), value.isFinite, abs(value) < 1e12 else {
      return String(format: "%.\(decimals)f", value)
    }
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(scaled) }
    let fraction = String(scaled % scale)
    return sign + String(scaled / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }

  /// `1 dose`, `2 doses`, `0 days`; `plural` for nouns that do not take an s.
  public static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
    "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
  }

  /// `today 14:00`, `tomorrow 09:30`, `yesterday 20:00`, `Thu 26 Nov 14:00` within a year of
  /// today, else `Thu 26 Nov 2027 14:00`. Built by hand: a DateFormatter costs milliseconds to
  /// load its locale data, a noticeable share of a short command.
  public func time(_ date: Date) -> String { time(date, offset: false) }

  /// `time(date)`, with its offset whenever `offset` asks for it.
  public func time(_ date: Date, offset: Bool) -> String {
    let c = calendar.dateComponents([.hour, .minute], from: date)
    let text = "\(day(LocalDate(date, in: calendar))) " + String(format: "%02d:%02d", c.hour!, c.minute!)
    return offset || Self.isAmbiguous(date, in: calendar.timeZone)
      ? text + " " + Self.offset(date, in: calendar.timeZone) : text
  }

  /// `Sun 25 Oct 01:50 +02:00 to 03:10 +01:00`: a stretch the clocks changed in has both
  /// offsets, or its wall times would disagree with its length; else `time(from) to time(to)`.
  public func span(_ from: Date, _ to: Date) -> String {
    let zone = calendar.timeZone
    let changed = zone.secondsFromGMT(for: from) != zone.secondsFromGMT(for: to)
    return time(from, offset: changed) + " to " + time(to, offset: changed)
  }

  /// Whether the local time of `date` happens twice (the hour clocks go back): then the wall
  /// clock alone does not say which of the two it was.
  public static func isAmbiguous(_ date: Date, in zone: TimeZone) -> Bool {
    let own = zone.secondsFromGMT(for: date)
    for probe in [date.addingTimeInterval(-3 * 3600), date.addingTimeInterval(3 * 3600)] {
      let other = zone.secondsFromGMT(for: probe)
      guard other != own else { continue }
      let twin = date.addingTimeInterval(Double(own - other))
      if zone.secondsFromGMT(for: twin) == other { return true }
    }
    return false
  }

  /// `+02:00`.
  public static func offset(_ date: Date, in zone: TimeZone) -> String {
    let seconds = zone.secondsFromGMT(for: date)
    let minutes = abs(seconds) / 60
    return (seconds < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
  }

  /// `today`, `tomorrow`, `yesterday`, `Thu 26 Nov` within half a year of today, else
  /// `Thu 26 Nov 2027`.
  public func day(_ date: LocalDate) -> String {
    let today = LocalDate(now, in: calendar)
    switch today.days(to: date, in: calendar) {
    case 0: return "today"
    case 1: return "tomorrow"
    case -1: return "yesterday"
    case let n where abs(n) <= 182: return Self.short(date)
    default: return Self.short(date) + " \(date.year)"
    }
  }

  /// `Thu 26 Nov`.
  public static func short(_ date: LocalDate) -> String {
    "\(weekdays[date.weekday % 7]) \(date.day) \(months[date.month - 1])"
  }

  /// `26 Nov 2026`: a date that stands alone, as in a report.
  public static func date(_ date: LocalDate) -> String {
    "\(date.day) \(months[date.month - 1]) \(date.year)"
  }

  /// `26 November 2026`.
  public static func longDate(_ date: LocalDate) -> String {
    "\(date.day) \(fullMonths[date.month - 1]) \(date.year)"
  }

  static let fullWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

  /// `Thursday 26 November 2026 at 09:00`: a moment in a heading, in words.
  public func inWords(_ moment: Date) -> String {
    let day = LocalDate(moment, in: calendar)
    let c = calendar.dateComponents([.hour, .minute], from: moment)
    return "\(Self.fullWeekdays[day.weekday % 7]) \(Self.longDate(day)) at "
      + String(format: "%02d:%02d", c.hour!, c.minute!)
  }

  /// `Nov 2026`: a month on a chart's axis, never mistaken for a day.
  public static func month(_ date: LocalDate) -> String {
    "\(months[date.month - 1]) \(date.year)"
  }

  /// The first characters of an id, as lists show them: `3f2a9c1d`.
  public static func shortID(_ id: String) -> String { String(id.prefix(8)) }
}
