import Core
import Foundation
import Testing

@testable import Records
@testable import Views

/// The pure parts of medication plans: tapers, lengths of time, wall clocks and zone rules.
@Suite struct MedicationPlanTests {
  @Test func taperStepsParseDaysAndWeeksAndRefuseTheRest() throws {
    let steps = try TaperStep.parse("20 mg:7d, 10 mg:2w,5 mg:1D")
    #expect(steps == [.init(dose: "20 mg", days: 7), .init(dose: "10 mg", days: 14), .init(dose: "5 mg", days: 1)])
    #expect(TaperStep.text(steps) == "20 mg:7d,10 mg:14d,5 mg:1d")
    for bad in ["20 mg", "20 mg:0d", ":7d", "20 mg:7x", "20 mg:7d:1", "20 mg:7d,", "20 mg:9999d", "20 mg:-1d"] {
      #expect(throws: MedicationError.self, "\(bad)") { try TaperStep.parse(bad) }
    }
  }

  @Test func theDoseInForceChangesOnTheBoundaryDays() throws {
    let start = LocalDate("2026-03-02")!
    var plan = MedicationPlan(
      times: [TimeOfDay("08:00")!], steps: try TaperStep.parse("20 mg:7d,10 mg:7d,5 mg:5d"), stepsStart: start,
      since: Date(timeIntervalSince1970: 0))
    func dose(_ day: String) -> String? { plan.dose(on: LocalDate(day)!).dose }
    #expect(plan.dose(on: LocalDate("2026-03-01")!).scheduled == false, "before the start")
    #expect([dose("2026-03-02"), dose("2026-03-08"), dose("2026-03-09")] == ["20 mg", "20 mg", "10 mg"])
    #expect([dose("2026-03-15"), dose("2026-03-16"), dose("2026-03-20")] == ["10 mg", "5 mg", "5 mg"])
    #expect(plan.dose(on: LocalDate("2026-03-21")!).scheduled == false, "then stop")
    #expect(plan.lastDay == LocalDate("2026-03-20"))
    #expect(plan.stretch(on: LocalDate("2026-03-09")!).index == 1)
    #expect(plan.stretch(on: LocalDate("2026-03-09")!).end == LocalDate("2026-03-16"))
    plan.thenKeep = true
    #expect(dose("2026-06-01") == "5 mg")
    #expect(plan.lastDay == nil && plan.stretch(on: LocalDate("2026-06-01")!).end == nil)
  }

  @Test func lengthsOfTimeAsPeopleTypeThem() {
    #expect(TimeSpan.seconds("1h30m") == 5400)
    #expect(TimeSpan.seconds(" 15M ") == 900)
    #expect(TimeSpan.seconds("2d") == 172_800)
    for bad in ["", "h", "90", "1.5h", "4 h", "0m", "1y"] { #expect(TimeSpan.seconds(bad) == nil, "\(bad)") }
    #expect(TimeSpan.text(5400) == "1h30m")
    #expect(TimeSpan.text(0) == "0m")
  }

  /// RFC 5545, 3.3.5: a skipped time is read with the offset before the gap, a repeated one
  /// as its first occurrence.
  @Test func wallClockTimesAcrossTheChanges() {
    let york = TimeZone(identifier: "America/New_York")!
    func utc(_ day: String, _ time: String) -> String {
      ICalendar.utc(WallClock.instant(LocalDate(day)!, TimeOfDay(time)!, in: york))
    }
    #expect(utc("2026-03-07", "08:00") == "20260307T130000Z")
    #expect(utc("2026-03-08", "02:30") == "20260308T073000Z", "03:30 summer time")
    #expect(utc("2026-03-08", "08:00") == "20260308T120000Z")
    #expect(utc("2026-11-01", "01:30") == "20261101T053000Z", "the first 01:30")
  }

  @Test func zoneRulesBecomeYearlyRulesOrDates() {
    let berlin = VTimeZone.lines(TimeZone(identifier: "Europe/Berlin")!, from: 2026)
    #expect(berlin.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"))
    #expect(berlin.contains("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"))
    let york = VTimeZone.lines(TimeZone(identifier: "America/New_York")!, from: 2026)
    #expect(york.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))
    #expect(york.contains("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"))
    #expect(york.contains("DTSTART:20250309T020000"))
    let tokyo = VTimeZone.lines(TimeZone(identifier: "Asia/Tokyo")!, from: 2026)
    #expect(!tokyo.contains { $0.hasPrefix("RRULE") } && tokyo.contains("TZOFFSETTO:+0900"))
    #expect(VTimeZone.text(-16_200) == "-0430" && VTimeZone.text(20_700) == "+0545")
  }
}
