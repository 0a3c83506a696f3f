import Foundation
import Testing

@testable import Storage

@Suite struct LocalTimeFormatterTests {
  func local(_ formatter: LocalTimeFormatter, _ date: Date) -> String? {
    var out: [UInt8] = []
    let stored = ISO8601.string(from: date)
    let ok = Array(stored.utf8).withUnsafeBufferPointer { formatter.appendLocal(stored: $0, to: &out) }
    return ok ? String(decoding: out, as: UTF8.self) : nil
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"])
  func matchesFoundationAcrossTransitionsInBothDirections(zone: String) throws {
    let tz = try #require(TimeZone(identifier: zone))
    let start = ISO8601.date(from: "2019-01-01T00:00:00Z")!.timeIntervalSince1970
    // Every 7 hours and 13 minutes for eight years hits every transition's neighbourhood.
    let instants = stride(from: 0.0, to: 8 * 365 * 86_400, by: 26_000).map { Date(timeIntervalSince1970: start + $0) }
    let descending = LocalTimeFormatter(timeZone: tz)
    for date in instants.reversed() {
      #expect(local(descending, date) == ISO8601.string(from: date, timeZone: tz), "\(zone) \(date)")
    }
    let ascending = LocalTimeFormatter(timeZone: tz)
    for date in instants {
      #expect(local(ascending, date) == ISO8601.string(from: date, timeZone: tz), "\(zone) \(date)")
    }
  }

  @Test func anOffsetWithSecondsKeepsTheInstant() throws {
    // Berlin kept local mean time, +00:53:28, until April 1893.
    let tz = try #require(TimeZone(identifier: "Europe/Berlin"))
    let date = try #require(ISO8601.date(from: "1893-03-30T23:00:00Z"))
    let text = try #require(local(LocalTimeFormatter(timeZone: tz), date))
    #expect(text == "1893-03-30T23:53:00+00:53")
    let fields = try #require(ISO8601.fields(from: text))
    #expect(ISO8601.date(from: fields, offset: try #require(fields.offset)) == date, "read back, the same instant")
  }

  @Test func textNotInTheStoredFormIsLeftToTheCaller() {
    let formatter = LocalTimeFormatter(timeZone: TimeZone(identifier: "Europe/Berlin")!)
    for text in ["", "2026-12-01", "2026-12-01T08:30:00+01:00", "2026-1x-01T08:30:00.000Z", "garbage garbage garbage!"]
    {
      var out: [UInt8] = []
      let ok = Array(text.utf8).withUnsafeBufferPointer { formatter.appendLocal(stored: $0, to: &out) }
      #expect(!ok && out.isEmpty, "\(text)")
    }
  }
}
