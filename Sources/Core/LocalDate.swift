import Foundation
import Storage

/// A calendar day in the user's zone, `YYYY-MM-DD`. Day arithmetic goes through `Calendar`, so
/// "3 days later" stays 3 calendar days across a daylight-saving change.
public struct LocalDate: Comparable, Hashable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= ISO8601.daysIn(month: month, year: year) else { return nil }
    (self.year, self.month, self.day) = (year, month, day)
  }

  /// Parses `YYYY-MM-DD`.
  public init?(_ text: String) {
    guard let (y, m, d) = ISO8601.day(from: text) else { return nil }
    self.init(year: y, month: m, day: d)
  }

  /// The day `date` falls on in `calendar`'s zone.
  public init(_ date: Date, in calendar: Calendar) {
    let c = calendar.dateComponents([.year, .month, .day], from: date)
    (year, month, day) = (c.year!, c.month!, c.day!)
  }

  /// Midnight at the start of this day (or the first instant of it, where midnight is skipped).
  public func start(in calendar: Calendar) -> Date {
    calendar.date(from: DateComponents(year: year, month: month, day: day))!
  }

  public func adding(days: Int, in calendar: Calendar) -> LocalDate {
    LocalDate(calendar.date(byAdding: .day, value: days, to: noon(calendar))!, in: calendar)
  }

  /// Month arithmetic clamps to the month's end (31 Jan + 1 month = 28 or 29 Feb).
  public func adding(months: Int, in calendar: Calendar) -> LocalDate {
    LocalDate(calendar.date(byAdding: .month, value: months, to: noon(calendar))!, in: calendar)
  }

  /// Whole calendar days from `self` to `other` (negative when `other` is earlier).
  public func days(to other: LocalDate, in calendar: Calendar) -> Int {
    calendar.dateComponents([.day], from: noon(calendar), to: other.noon(calendar)).day!
  }

  /// Days since 1970-01-01: plain day arithmetic for rules that count days, not hours.
  public var ordinal: Int { Int(ISO8601.days(fromCivil: Int64(year), month, day)) }

  public init(ordinal: Int) {
    let (y, m, d) = ISO8601.civil(fromDays: Int64(ordinal))
    (year, month, day) = (Int(y), m, d)
  }

  public func adding(days: Int) -> LocalDate { LocalDate(ordinal: ordinal + days) }

  /// Monday is 1, Sunday 7 (ISO 8601).
  public var weekday: Int { ((ordinal % 7 + 7) % 7 + 3) % 7 + 1 }

  /// Whole years from `self` to `other`, as ages are counted.
  public func years(to other: LocalDate) -> Int {
    var years = other.year - year
    if (other.month, other.day) < (month, day) { years -= 1 }
    return years
  }

  // Noon is never skipped or doubled by a zone change, so it is a safe anchor for day arithmetic.
  private func noon(_ calendar: Calendar) -> Date {
    calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
  }

  /// `2026-11-20`. By hand: `String(format:)` costs as much as a trend's other work per row.
  public var description: String {
    let y = String(year)
    let padded = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - y.count) + y : y
    return padded + (month < 10 ? "-0" : "-") + String(month) + (day < 10 ? "-0" : "-") + String(day)
  }

  public static func < (a: LocalDate, b: LocalDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}
