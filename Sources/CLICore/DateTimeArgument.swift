import ArgumentParser
import Foundation
import Storage

/// A date-time as people type it. Placed on the time line by `App.instant(_:)`, which knows the
/// clock and the zone:
/// - `2026-12-01T09:30` or `2026-12-01 09:30` in the local zone, or an ISO 8601 instant with an
///   offset;
/// - `07:30` (today), `today 07:30`, `yesterday 20:00`, `tomorrow 09:00`;
/// - `now`, or an offset from now: `+2d`, `-3h`, `+30m`, `+1w`;
/// - `2026-12-01` alone, which only some options take as midnight: where a time matters it is
///   asked for instead.
public struct DateTimeArgument: ExpressibleByArgument, Sendable {
  public enum Form: Sendable, Equatable {
    /// A local date-time (no offset) or an instant (with one).
    case fields(ISO8601.Fields)
    /// A date without a time.
    case date(year: Int, month: Int, day: Int)
    /// A time of day, `days` from today.
    case timeOfDay(days: Int, hour: Int, minute: Int)
    /// Seconds from now.
    case fromNow(TimeInterval)
  }

  public let text: String
  public let form: Form

  public init?(argument: String) {
    let text = argument.trimmingCharacters(in: .whitespaces)
    guard let form = Self.parse(text) else { return nil }
    self.text = argument
    self.form = form
  }

  static func parse(_ text: String) -> Form? {
    if let fields = ISO8601.fields(from: text) { return .fields(fields) }
    if let (y, m, d) = ISO8601.day(from: text) { return .date(year: y, month: m, day: d) }
    let lower = text.lowercased()
    if lower == "now" { return .fromNow(0) }
    if let time = timeOfDay(lower) { return .timeOfDay(days: 0, hour: time.0, minute: time.1) }
    for (word, days) in [("today", 0), ("yesterday", -1), ("tomorrow", 1)] where lower.hasPrefix(word) {
      let rest = lower.dropFirst(word.count).trimmingCharacters(in: CharacterSet(charactersIn: " T"))
      guard let time = timeOfDay(rest) else { return nil }
      return .timeOfDay(days: days, hour: time.0, minute: time.1)
    }
    if let first = lower.first, first == "+" || first == "-", let unit = lower.last,
      let count = Int(lower.dropFirst().dropLast()), count <= 100_000
    {
      let seconds: Double
      switch unit {
      case "m": seconds = 60
      case "h": seconds = 3600
      case "d": seconds = 86_400
      case "w": seconds = 7 * 86_400
      default: return nil
      }
      return .fromNow(Double(first == "+" ? count : -count) * seconds)
    }
    return nil
  }

  /// `HH:MM` (or `H:MM`).
  static func timeOfDay(_ text: String) -> (Int, Int)? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
    else { return nil }
    return (h, m)
  }
}
