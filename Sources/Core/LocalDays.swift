import Foundation
import Storage

/// The local day of many instants in one calendar's zone, for loops over years of readings:
/// `LocalDate(_:in:)` asks Foundation's calendar each time, this looks the zone's offset up once
/// per stretch without a transition (`LocalTimeFormatter`) and finds the day by arithmetic.
public final class LocalDays {
  private let calendar: Calendar
  private let offsets: LocalTimeFormatter
  private let gregorian: Bool

  public init(_ calendar: Calendar) {
    self.calendar = calendar
    offsets = LocalTimeFormatter(timeZone: calendar.timeZone)
    gregorian = calendar.identifier == .gregorian
  }

  /// The day `date` falls on, as `LocalDate(date, in: calendar)` gives it.
  public func day(_ date: Date) -> LocalDate {
    guard gregorian, date.timeIntervalSince1970.isFinite else { return LocalDate(date, in: calendar) }
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let local = Int64(seconds) + Int64(offsets.offset(at: seconds))
    let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
    let (y, m, d) = ISO8601.civil(fromDays: days)
    return LocalDate(year: Int(y), month: m, day: d) ?? LocalDate(date, in: calendar)
  }
}
