import Core
import Foundation
import Testing

@testable import Records

/// The pure rules of a night, with samples small enough to count by hand.
@Suite struct SleepAnalysisTests {
  let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
    return calendar
  }()
  let rank = ["Watch": 0, "Phone": 1, "App": 2]

  /// Minutes after 22:00 local (21:00 UTC) on 9 November 2026.
  func at(_ minutes: Int) -> Date { Date(timeIntervalSince1970: 1_794_258_000 + Double(minutes) * 60) }

  func sample(_ state: SleepState, _ source: String, _ from: Int, _ to: Int) -> SleepSample {
    SleepSample(state: state, source: source, start: at(from), end: at(to))
  }

  @Test func theBestSourceDecidesEachMomentAndOverlapsCountOnce() throws {
    let nights = SleepAnalysis.nights(
      [
        sample(.inBed, "Phone", 0, 500), sample(.asleep, "App", 10, 480), sample(.core, "Watch", 30, 130),
        sample(.deep, "Watch", 130, 190), sample(.awake, "Watch", 190, 200), sample(.rem, "Watch", 200, 260),
        // Two of one source begun together: a tie, decided the same way every time (by name).
        sample(.deep, "Watch", 260, 300), sample(.core, "Watch", 260, 300),
      ], rank: rank, calendar: calendar)
    let night = try #require(nights.first)
    #expect(nights.count == 1 && night.day == LocalDate(year: 2026, month: 11, day: 10))
    #expect(night.bedtime == at(0) && night.wake == at(500))
    #expect(night.inBed == 500 * 60)
    // The app's unstaged sleep counts only where the watch said nothing: 10–30 and 300–480.
    #expect(night.stages[.asleep] == 200 * 60)
    #expect(night.stages[.core] == 140 * 60 && night.stages[.deep] == 60 * 60 && night.stages[.rem] == 60 * 60)
    #expect(night.awake == 10 * 60 && night.awakePeriods == 1)
    #expect(night.asleep == 460 * 60)
    #expect(night.sources == ["Watch", "Phone", "App"])
  }

  @Test func inBedAloneIsNoSleepKnown() throws {
    let night = try #require(
      SleepAnalysis.nights([sample(.inBed, "Phone", 0, 420)], rank: rank, calendar: calendar).first)
    #expect(night.asleep == nil && night.inBed == 420 * 60 && night.awakePeriods == 0)
  }

  @Test func lessThanTwoHoursApartIsOneSleepAndAnAfternoonIsANap() throws {
    let nights = SleepAnalysis.nights(
      [
        sample(.core, "Watch", 0, 420), sample(.core, "Watch", 539, 560),  // 119 minutes apart: one sleep
        sample(.core, "Watch", 960, 1000),  // 14:00 the next day: a nap
        sample(.core, "Watch", 1680, 1700), sample(.core, "Watch", 1820, 1830),  // 120 apart: two
      ], rank: rank, calendar: calendar)
    #expect(nights.count == 2)
    let first = try #require(nights.first)
    #expect(first.inBed == 441 * 60 && first.asleep == 441 * 60, "the gap itself is not counted")
    #expect(first.naps.map(\.asleep) == [40 * 60])
    #expect(nights.last?.inBed == 20 * 60 && nights.last?.naps.map(\.inBed) == [10 * 60])
  }

  /// A year of nights is read from the sleep index alone: the query names its rows in the
  /// index's own words, which SQLite needs to use a partial index.
  @Test func sleepIsReadFromItsCoveringIndex() throws {
    let test = try TestAccount()
    let plan = try test.db.query(
      "EXPLAIN QUERY PLAN " + HealthStore.sleepQuery, "acc", "2026-01-01", "2027-01-01",
      row: { try $0.get(3, as: String.self) })
    #expect(plan.joined().contains("COVERING INDEX health_sample_sleep"), "\(plan)")
  }
}
