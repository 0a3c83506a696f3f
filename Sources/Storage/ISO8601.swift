import Foundation

/// ISO 8601 text for instants, written and read without Foundation's formatters: they are slow
/// in hot loops and their output varies by platform.
public enum ISO8601 {
  /// A parsed date-time before it is placed on the time line.
  public struct Fields: Equatable, Sendable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    public var millisecond: Int
    /// Seconds east of UTC, or nil when the text named no offset (a local time).
    public var offset: Int?

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int, offset: Int?) {
      (self.year, self.month, self.day) = (year, month, day)
      (self.hour, self.minute, self.second, self.millisecond, self.offset) = (hour, minute, second, millisecond, offset)
    }
  }

  /// `2026-12-01T08:30:00.000Z`: UTC with milliseconds, so stored dates sort as text.
  public static func string(from date: Date) -> String {
    string(from: date, offset: 0, fraction: true)
  }

  /// `2026-12-01T09:30:00+01:00`: the form shown to users and printed in JSON. An offset with
  /// seconds (local mean time before the 1890s) is written to the whole minute, and the local
  /// time with it, so the text still names the same instant.
  public static func string(from date: Date, timeZone: TimeZone) -> String {
    string(from: date, offset: timeZone.secondsFromGMT(for: date) / 60 * 60, fraction: false)
  }

  static func string(from date: Date, offset: Int, fraction: Bool) -> String {
    let totalMs = Int64((date.timeIntervalSince1970 * 1000).rounded()) + Int64(offset) * 1000
    let ms = totalMs.floorMod(1000)
    let seconds = (totalMs - ms) / 1000
    let secOfDay = seconds.floorMod(86_400)
    let days = (seconds - secOfDay) / 86_400
    let (y, m, d) = civil(fromDays: days)
    // Written byte by byte: this runs for every stored instant, millions of times in an import.
    return String(unsafeUninitializedCapacity: 29) { out in
      var i = 0
      func put(_ value: Int, _ width: Int) {
        var v = value
        for k in stride(from: width - 1, through: 0, by: -1) {
          out[i + k] = UInt8(48 + v % 10)
          v /= 10
        }
        i += width
      }
      func put(_ byte: Unicode.Scalar) {
        out[i] = UInt8(ascii: byte)
        i += 1
      }
      if y < 0 || y > 9999 {
        put(y < 0 ? "-" : "+")
        put(Int(abs(y)), 6)
      } else {
        put(Int(y), 4)
      }
      put("-")
      put(m, 2)
      put("-")
      put(d, 2)
      put("T")
      put(Int(secOfDay / 3600), 2)
      put(":")
      put(Int(secOfDay / 60 % 60), 2)
      put(":")
      put(Int(secOfDay % 60), 2)
      if fraction {
        put(".")
        put(Int(ms), 3)
      }
      if offset == 0, fraction {
        put("Z")
      } else {
        put(offset < 0 ? "-" : "+")
        put(abs(offset) / 3600, 2)
        put(":")
        put(abs(offset) / 60 % 60, 2)
      }
      return i
    }
  }

  /// An instant: the text must carry `Z` or an offset.
  public static func date(from text: String) -> Date? {
    // Most text read is the stored form: read in place, where the general parser copies it.
    var text = text
    if let ms = text.withUTF8(storedMilliseconds(utf8:)) { return date(milliseconds: ms) }
    guard let f = fields(from: text), let offset = f.offset else { return nil }
    return date(from: f, offset: offset)
  }

  /// The instant `ms` milliseconds after 1970 began, the same Double `date(from:)` gives for
  /// its text: seconds and milliseconds added as `date(from:offset:)` adds them.
  public static func date(milliseconds ms: Int64) -> Date {
    let seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000)
    return Date(timeIntervalSince1970: Double(seconds) + Double(ms - seconds * 1000) / 1000)
  }

  /// Milliseconds since 1970 of instant text as UTF-8 bytes: the stored form
  /// (`2026-12-01T08:30:00.000Z`) read without allocating, anything else through `date(from:)`.
  public static func milliseconds(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
    if let ms = storedMilliseconds(utf8: b) { return ms }
    guard let date = date(from: String(decoding: b, as: UTF8.self)) else { return nil }
    return Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  /// Milliseconds since 1970 of text in exactly the stored form; nil for any other text.
  static func storedMilliseconds(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
    func digits(_ at: Int, _ count: Int) -> Int? {
      var v = 0
      for i in at..<(at + count) {
        let d = Int(b[i]) - 48
        guard (0...9).contains(d) else { return nil }
        v = v * 10 + d
      }
      return v
    }
    if b.count == 24, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x2E,
      b[23] == 0x5A, let y = digits(0, 4), let mo = digits(5, 2), let d = digits(8, 2), let h = digits(11, 2),
      let mi = digits(14, 2), let s = digits(17, 2), let ms = digits(20, 3), (1...12).contains(mo),
      (1...daysIn(month: mo, year: y)).contains(d), h < 24, mi < 60, s < 60
    {
      let days = days(fromCivil: Int64(y), mo, d)
      return (days * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1000 + Int64(ms)
    }
    return nil
  }

  /// The instant for fields at a given offset from UTC.
  public static func date(from f: Fields, offset: Int) -> Date {
    let days = days(fromCivil: Int64(f.year), f.month, f.day)
    let seconds = days * 86_400 + Int64(f.hour * 3600 + f.minute * 60 + f.second) - Int64(offset)
    return Date(timeIntervalSince1970: Double(seconds) + Double(f.millisecond) / 1000)
  }

  /// Parses `YYYY-MM-DD[T| ]HH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]`; nil for anything else.
  public static func fields(from text: String) -> Fields? {
    var s = Scanner(Array(text.utf8))
    guard let year = s.digits(4), s.take(UInt8(ascii: "-")),
      let month = s.digits(2), s.take(UInt8(ascii: "-")),
      let day = s.digits(2), s.take(UInt8(ascii: "T")) || s.take(UInt8(ascii: " ")),
      let hour = s.digits(2), s.take(UInt8(ascii: ":")), let minute = s.digits(2)
    else { return nil }
    var second = 0
    var ms = 0
    if s.take(UInt8(ascii: ":")) {
      guard let sec = s.digits(2) else { return nil }
      second = sec
      if s.take(UInt8(ascii: ".")) {
        guard let (value, count) = s.fraction() else { return nil }
        ms = count >= 3 ? value / pow10(count - 3) : value * pow10(3 - count)
      }
    }
    var offset: Int?
    if s.take(UInt8(ascii: "Z")) {
      offset = 0
    } else if let sign = s.sign() {
      guard let oh = s.digits(2) else { return nil }
      _ = s.take(UInt8(ascii: ":"))
      guard let om = s.digits(2), oh < 24, om < 60 else { return nil }
      offset = sign * (oh * 3600 + om * 60)
    }
    guard s.atEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    return Fields(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      millisecond: ms, offset: offset)
  }

  /// Parses `YYYY-MM-DD` into (year, month, day), checking that the day exists.
  public static func day(from text: String) -> (year: Int, month: Int, day: Int)? {
    var s = Scanner(Array(text.utf8))
    guard let y = s.digits(4), s.take(UInt8(ascii: "-")), let m = s.digits(2),
      s.take(UInt8(ascii: "-")), let d = s.digits(2), s.atEnd,
      (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y)
    else { return nil }
    return (y, m, d)
  }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // Howard Hinnant's days-from-civil algorithms: exact for the proleptic Gregorian calendar.
  public static func days(fromCivil year: Int64, _ month: Int, _ day: Int) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = Int64(month > 2 ? month - 3 : month + 9)
    let doy = (153 * mp + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  public static func civil(fromDays z0: Int64) -> (Int64, Int, Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = Int(doy - (153 * mp + 2) / 5 + 1)
    let m = Int(mp < 10 ? mp + 3 : mp - 9)
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }

  private static func pow10(_ n: Int) -> Int {
    var r = 1
    for _ in 0..<n { r *= 10 }
    return r
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func digits(_ count: Int) -> Int? {
      guard index + count <= bytes.count else { return nil }
      var value = 0
      for b in bytes[index..<index + count] {
        guard b >= 48, b <= 57 else { return nil }
        value = value * 10 + Int(b - 48)
      }
      index += count
      return value
    }

    /// Up to nine fractional digits; more are read and dropped.
    mutating func fraction() -> (Int, Int)? {
      var value = 0
      var count = 0
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        if count < 9 {
          value = value * 10 + Int(bytes[index] - 48)
          count += 1
        }
        index += 1
      }
      return count == 0 ? nil : (value, count)
    }

    mutating func sign() -> Int? {
      if take(UInt8(ascii: "+")) { return 1 }
      if take(UInt8(ascii: "-")) { return -1 }
      return nil
    }
  }
}

extension Int64 {
  fileprivate func floorMod(_ n: Int64) -> Int64 {
    let r = self % n
    return r < 0 ? r + n : r
  }
}
