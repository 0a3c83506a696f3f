import Foundation

/// Turns stored UTC text (`2026-12-01T08:30:00.000Z`) into local ISO 8601 text
/// (`2026-12-01T09:30:00+01:00`) byte by byte, for exports of many rows. Zone offsets are
/// looked up once per stretch of time without a transition, not once per row.
public final class LocalTimeFormatter {
  let zone: TimeZone
  private var low = Double.infinity
  private var high = -Double.infinity
  private var cachedOffset = 0

  public init(timeZone: TimeZone) { zone = timeZone }

  /// The zone's offset from UTC in seconds at `seconds` since 1970.
  public func offset(at seconds: Double) -> Int {
    if seconds >= low && seconds < high { return cachedOffset }
    let date = Date(timeIntervalSince1970: seconds)
    let offset = zone.secondsFromGMT(for: date)
    let next = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
    // Widen the stretch backwards half a year when nothing changes in between: exports run
    // newest first, so most rows then fall inside it.
    var start = seconds
    let probe = Date(timeIntervalSince1970: seconds - 190 * 86_400)
    if zone.secondsFromGMT(for: probe) == offset,
      (zone.nextDaylightSavingTimeTransition(after: probe)?.timeIntervalSince1970 ?? .infinity) == next
    {
      start = probe.timeIntervalSince1970
    }
    (low, high, cachedOffset) = (start, next, offset)
    return offset
  }

  /// Appends the local form of `stored` to `out`; false (and nothing appended) when `stored`
  /// is not UTC text in the stored form.
  public func appendLocal(stored: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
    let n = stored.count
    guard n == 20 || n == 24, stored[n - 1] == UInt8(ascii: "Z"), stored[4] == 45, stored[7] == 45,
      stored[10] == UInt8(ascii: "T"), stored[13] == 58, stored[16] == 58
    else { return false }
    func num(_ from: Int, _ count: Int) -> Int? {
      var v = 0
      for i in from..<from + count {
        let d = Int(stored[i]) - 48
        guard d >= 0 && d <= 9 else { return nil }
        v = v * 10 + d
      }
      return v
    }
    guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2),
      let s = num(17, 2), (1...12).contains(mo), d >= 1, d <= 31
    else { return false }
    let utc = ISO8601.days(fromCivil: Int64(y), mo, d) * 86_400 + Int64(h * 3600 + mi * 60 + s)
    // Offsets with seconds (local mean time before the 1890s: Berlin +00:53:28) are written to
    // the whole minute, and the local time with them: `+hh:mm` keeps the instant exact.
    let offset = self.offset(at: Double(utc)) / 60 * 60
    let local = utc + Int64(offset)
    let secondOfDay = Int((local % 86_400 + 86_400) % 86_400)
    let (ly, lm, ld) = ISO8601.civil(fromDays: (local - Int64(secondOfDay)) / 86_400)
    func put(_ value: Int, _ width: Int) {
      var scale = width == 4 ? 1000 : 10
      while scale > 0 {
        out.append(UInt8(48 + value / scale % 10))
        scale /= 10
      }
    }
    put(Int(ly), 4)
    out.append(45)
    put(lm, 2)
    out.append(45)
    put(ld, 2)
    out.append(UInt8(ascii: "T"))
    put(secondOfDay / 3600, 2)
    out.append(58)
    put(secondOfDay / 60 % 60, 2)
    out.append(58)
    put(secondOfDay % 60, 2)
    out.append(offset < 0 ? 45 : 43)
    put(abs(offset) / 3600, 2)
    out.append(58)
    put(abs(offset) / 60 % 60, 2)
    return true
  }
}
