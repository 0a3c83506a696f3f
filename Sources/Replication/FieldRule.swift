import Foundation
import Storage

/// What one field of a record may hold, written once with the record's description and applied
/// at every door a record comes through: a command, an import, a pulled sync page, the server.
/// Rules are data (no closures), so the server can hold the rules of the datasets it knows.
public enum FieldRule: Sendable, Hashable {
  /// Text of at most this many UTF-8 bytes (a synced value holds at most 1 MiB anyway).
  case text(maxBytes: Int)
  /// One of these words.
  case oneOf([String])
  /// A day, `YYYY-MM-DD`, in these years.
  case day(years: ClosedRange<Int>)
  /// An instant as Vital stores it (ISO 8601, UTC), in these years.
  case instant(years: ClosedRange<Int>)
  /// A finite number in this range (a whole number is a number too).
  case number(ClosedRange<Double>)
  /// A whole number in this range.
  case integer(ClosedRange<Int64>)
  /// 0 or 1.
  case flag
  /// A time of day, `HH:MM`.
  case timeOfDay
  /// Times of day, `HH:MM,HH:MM`, or none (empty: a medication taken as needed).
  case timesOfDay
  /// Weekdays, `mon,thu`.
  case weekdays
  /// Lowercase hexadecimal SHA-256 (64 characters).
  case sha256
  /// JSON text that parses.
  case json
  /// A finite number in this range, or text of at most this many bytes (a value whose type
  /// varies by row, such as a health sample's).
  case numberOrText(ClosedRange<Double>, maxBytes: Int)

  /// Why `value` does not pass, in words that finish "…: " + reason; nil when it does. NULL is
  /// for `RecordRules` to judge (required or not).
  public func fault(_ value: DatabaseValue) -> String? {
    switch (self, value) {
    case (_, .null): return nil
    case (.text(let max), .text(let t)): return t.utf8.count <= max ? nil : "longer than \(max) bytes"
    case (.oneOf(let words), .text(let t)):
      return words.contains(t) ? nil : "not one of \(words.joined(separator: ", "))"
    case (.day(let years), .text(let t)):
      guard let (y, _, _) = ISO8601.day(from: t), t.count == 10 else { return "not a day (YYYY-MM-DD)" }
      return years.contains(y) ? nil : "outside the years \(years.lowerBound) to \(years.upperBound)"
    case (.instant(let years), .text(let t)):
      guard let date = ISO8601.date(from: t) else { return "not an ISO 8601 instant" }
      // The UTC year by arithmetic: a Calendar made and asked per value was most of what checking
      // an imported row cost. (Foundation's Gregorian calendar is Julian before 1582, which no
      // rule's years reach.)
      let year = ISO8601.civil(fromDays: Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))).0
      return years.contains(Int(year)) ? nil : "outside the years \(years.lowerBound) to \(years.upperBound)"
    case (.number(let range), .real(let d)):
      return d.isFinite && range.contains(d) ? nil : Self.outside(range)
    case (.number(let range), .integer(let n)):
      return range.contains(Double(n)) ? nil : Self.outside(range)
    case (.integer(let range), .integer(let n)):
      return range.contains(n) ? nil : "outside \(range.lowerBound) to \(range.upperBound)"
    case (.integer(let range), .real(let d)):
      guard d.isFinite, d == d.rounded(), abs(d) < 9e15 else { return "not a whole number" }
      return range.contains(Int64(d)) ? nil : "outside \(range.lowerBound) to \(range.upperBound)"
    case (.flag, .integer(let n)): return n == 0 || n == 1 ? nil : "not 0 or 1"
    case (.timeOfDay, .text(let t)): return Self.isTime(t) ? nil : "not a time of day (HH:MM)"
    case (.timesOfDay, .text(let t)):
      if t.isEmpty { return nil }
      let parts = t.split(separator: ",", omittingEmptySubsequences: false)
      return !parts.isEmpty && parts.count <= 48 && parts.allSatisfy { Self.isTime(String($0)) }
        ? nil : "not times of day (HH:MM,HH:MM)"
    case (.weekdays, .text(let t)):
      let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
      return t.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { days.contains(String($0)) }
        ? nil : "not weekdays (mon,tue,...)"
    case (.sha256, .text(let t)):
      return t.utf8.count == 64 && t.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        ? nil : "not a SHA-256 in hexadecimal"
    case (.json, .text(let t)):
      return (try? JSONSerialization.jsonObject(with: Data(t.utf8), options: [.fragmentsAllowed])) != nil
        ? nil : "not JSON"
    case (.numberOrText(let range, _), .real(let d)):
      return d.isFinite && range.contains(d) ? nil : Self.outside(range)
    case (.numberOrText(let range, _), .integer(let n)):
      return range.contains(Double(n)) ? nil : Self.outside(range)
    case (.numberOrText(_, let max), .text(let t)): return t.utf8.count <= max ? nil : "longer than \(max) bytes"
    default: return "of the wrong type (\(Self.type(of: value)))"
    }
  }

  static func isTime(_ text: String) -> Bool {
    let u = Array(text.utf8)
    guard u.count == 5, u[2] == 58, u.enumerated().allSatisfy({ $0.offset == 2 || (48...57).contains($0.element) })
    else { return false }
    return (Int(u[0] - 48) * 10 + Int(u[1] - 48)) < 24 && (Int(u[3] - 48) * 10 + Int(u[4] - 48)) < 60
  }

  static func outside(_ range: ClosedRange<Double>) -> String {
    func n(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }
    return "not a finite number from \(n(range.lowerBound)) to \(n(range.upperBound))"
  }

  static func type(of value: DatabaseValue) -> String {
    switch value {
    case .null: return "null"
    case .integer: return "a whole number"
    case .real: return "a number"
    case .text: return "text"
    case .blob: return "bytes"
    }
  }
}

/// A rule over several fields of one record.
public enum RecordRule: Sendable, Hashable {
  /// `later` (when set) is not before `earlier`: a period's end, a pause's end.
  case order(earlier: String, later: String)
  /// When `field` is `value`, `required` is set: a completed donation has its `completed_at`.
  case requiredWhen(field: String, equals: String, required: String)
  /// When `field` is one of `values`, `number` holds a finite number in `range`: a step count
  /// is a count, whatever a value of another type may be.
  case numberWhen(field: String, in: [String], number: String, range: ClosedRange<Double>)

  /// The two fields it reads, in the order it names them.
  var fields: (String, String) {
    switch self {
    case .order(let earlier, let later): (earlier, later)
    case .requiredWhen(let field, _, let required): (field, required)
    case .numberWhen(let field, _, let number, _): (field, number)
    }
  }
}

extension Row {
  /// Field `name` as `T` when what is stored passes `dataset`'s rule for it, else nil: a value
  /// an older Vital let in (or a hand edit) reads as missing, never as a crash further on.
  public func valid<T: DatabaseValueConvertible>(_ name: String, in dataset: Dataset, as type: T.Type = T.self) -> T? {
    let value = self[name]
    guard value != .null, dataset.rules[name]?.fault(value) == nil else { return nil }
    return T.fromDatabaseValue(value)
  }
}
