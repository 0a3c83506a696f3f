import Foundation
import Testing

@testable import Storage

@Suite struct ISO8601Tests {
  @Test func writesUTCWithMilliseconds() {
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_795_000_000.5)) == "2026-11-18T11:06:40.500Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
  }

  @Test func writesTheLocalOffsetForPeople() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    let winter = try #require(ISO8601.date(from: "2026-12-01T08:30:00Z"))
    #expect(ISO8601.string(from: winter, timeZone: berlin) == "2026-12-01T09:30:00+01:00")
    let summer = try #require(ISO8601.date(from: "2026-07-01T08:30:00Z"))
    #expect(ISO8601.string(from: summer, timeZone: berlin) == "2026-07-01T10:30:00+02:00")
    let kolkata = try #require(TimeZone(identifier: "Asia/Kolkata"))
    #expect(ISO8601.string(from: winter, timeZone: kolkata) == "2026-12-01T14:00:00+05:30")
  }

  @Test func anOffsetWithSecondsStillNamesTheSameInstant() throws {
    // Berlin kept local mean time, +00:53:28, until April 1893.
    let date = try #require(ISO8601.date(from: "1893-03-30T23:00:00Z"))
    let text = ISO8601.string(from: date, timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
    #expect(text == "1893-03-30T23:53:00+00:53")
    #expect(ISO8601.date(from: text) == date)
  }

  @Test func readsOffsetsAndFractions() throws {
    let utc = try #require(ISO8601.date(from: "2026-12-01T08:00:00Z"))
    #expect(ISO8601.date(from: "2026-12-01T09:00:00+01:00") == utc)
    #expect(ISO8601.date(from: "2026-12-01T03:00:00-0500") == utc)
    #expect(ISO8601.date(from: "2026-12-01 08:00Z") == utc)
    #expect(ISO8601.date(from: "2026-12-01T08:00:00.250Z") == utc.addingTimeInterval(0.25))
  }

  @Test func refusesImpossibleOrIncompleteText() {
    for text in [
      "", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01",
      "2026-12-01T08:00:00", "2026-12-01T08:00:00Zjunk", "２０２６-12-01T08:00:00Z", "2026-12-01T08:60Z",
    ] {
      #expect(ISO8601.date(from: text) == nil, "\(text) should be refused")
    }
    #expect(ISO8601.date(from: "2028-02-29T00:00:00Z") != nil)
  }

  @Test func localTimesParseWithoutAnOffset() throws {
    let fields = try #require(ISO8601.fields(from: "2026-12-01T09:30"))
    #expect(fields.offset == nil)
    #expect(fields.hour == 9 && fields.minute == 30)
  }

  @Test func everyDayOfFourCenturiesRoundTrips() {
    var days: Int64 = -146_097 * 2
    while days < 146_097 * 2 {
      let (y, m, d) = ISO8601.civil(fromDays: days)
      #expect(ISO8601.days(fromCivil: y, m, d) == days)
      days += 37
    }
  }

  @Test func millisecondsOfStoredTextAndOfAnythingElse() {
    func ms(_ text: String) -> Int64? {
      var text = text
      return text.withUTF8 { ISO8601.milliseconds(utf8: $0) }
    }
    #expect(ms("2026-03-29T01:00:00.250Z") == 1_774_746_000_250)
    #expect(ms("2026-03-29T03:00:00+02:00") == 1_774_746_000_000, "other forms through the full parser")
    #expect(ms("1970-01-01T00:00:00.000Z") == 0)
    for bad in [
      "2026-02-30T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01", "", "x",
    ] {
      #expect(ms(bad) == nil, "\(bad)")
    }
  }

  /// `date(from:)` reads the stored form in place: the same Double as the general parser gives
  /// (through the text with `+00:00`), before 1970 and after, to the millisecond.
  @Test func theStoredFormReadsAsTheGeneralParserReadsIt() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let ms = Int64.random(in: -6_000_000_000_000...8_000_000_000_000, using: &generator)
      let stored = ISO8601.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
      #expect(stored.count == 24)
      let general = try #require(ISO8601.fields(from: stored.replacingOccurrences(of: "Z", with: "+00:00")))
      #expect(ISO8601.date(from: stored) == ISO8601.date(from: general, offset: 0), "\(stored)")
    }
  }
}
