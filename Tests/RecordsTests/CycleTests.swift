import Core
import Foundation
import Storage
import Testing

@testable import Records

@Suite struct CyclePredictionTests {
  func periods(_ starts: [String], length: Int? = 5) -> [Period] {
    starts.map { s in
      let start = LocalDate(s)!
      return Period(start: start, end: length.map { start.adding(days: $0 - 1) })
    }
  }

  /// Known answer worked out by hand: cycles 15, 13, 14 give mean 14, sd 1.
  @Test func threeCyclesPredictWithNarrowRanges() throws {
    let p = try CyclePrediction.predict(
      periods: periods(["2018-06-20", "2018-07-05", "2018-07-18", "2018-08-01"]), today: LocalDate("2018-08-02")!,
      count: 3)
    #expect(p.confidence == .high)
    #expect(p.basedOnCycles == 3)
    #expect(p.meanCycle == 14)
    #expect(p.sd == 1)
    #expect(p.next.map(\.start.description) == ["2018-08-15", "2018-08-29", "2018-09-12"])
    #expect(p.next[0].startRange == LocalDate("2018-08-14")!...LocalDate("2018-08-16")!)
    #expect(p.next[0].end.description == "2018-08-19")
    #expect(p.next[0].ovulation.description == "2018-08-01")
    #expect(p.next[0].fertileWindow == LocalDate("2018-07-27")!...LocalDate("2018-08-02")!)
  }

  /// Cycles 24, 32, 28: mean 28, sd 4, so each start is +/-2 days.
  @Test func aWideSpreadWidensTheRange() throws {
    let p = try CyclePrediction.predict(
      periods: periods(["2026-01-01", "2026-01-25", "2026-02-26", "2026-03-26"], length: 4),
      today: LocalDate("2026-03-30")!, count: 1)
    #expect(p.meanCycle == 28)
    #expect(p.sd == 4)
    #expect(p.periodLength == 4)
    #expect(p.next[0].start.description == "2026-04-23")
    #expect(p.next[0].startRange == LocalDate("2026-04-21")!...LocalDate("2026-04-25")!)
  }

  @Test func fewerThanThreeCyclesUseTheDefaultsWithLowConfidence() throws {
    let p = try CyclePrediction.predict(
      periods: periods(["2026-01-01", "2026-01-31"], length: nil), today: LocalDate("2026-02-01")!, count: 2)
    #expect(p.confidence == .low)
    #expect(p.basedOnCycles == 0)
    #expect(p.meanCycle == 28)
    #expect(p.periodLength == 5, "no period has an end: the default length")
    #expect(p.next.map(\.start.description) == ["2026-02-28", "2026-03-28"])
    #expect(p.next[0].startRange.lowerBound.description == "2026-02-26", "+/-2 days without a spread to go on")
  }

  @Test func aGapOverNinetyNineDaysIsNotACycle() throws {
    // 30, then a 120-day gap, then 30, 30: three cycles of 30 count, the gap does not.
    let p = try CyclePrediction.predict(
      periods: periods(["2025-01-01", "2025-01-31", "2025-05-31", "2025-06-30", "2025-07-30"]),
      today: LocalDate("2025-08-01")!, count: 1)
    #expect(p.basedOnCycles == 3)
    #expect(p.meanCycle == 30)
    #expect(p.sd == 0)
    #expect(p.next[0].start.description == "2025-08-29")
  }

  @Test func onlyTheLastTwelveCyclesCount() throws {
    // Twelve 30-day cycles after three of 21: the old short ones are ignored.
    var starts = [LocalDate("2024-01-01")!]
    for gap in [21, 21, 21] + Array(repeating: 30, count: 12) { starts.append(starts.last!.adding(days: gap)) }
    let p = try CyclePrediction.predict(
      periods: periods(starts.map(\.description)), today: starts.last!, count: 1)
    #expect(p.basedOnCycles == 12)
    #expect(p.meanCycle == 30)
  }

  @Test func aLatePeriodIsNotPredictedInThePast() throws {
    let p = try CyclePrediction.predict(
      periods: periods(["2026-01-01", "2026-01-29", "2026-02-26", "2026-03-26"]), today: LocalDate("2026-05-10")!,
      count: 1)
    #expect(p.next[0].start.description == "2026-05-21")
  }

  @Test func noPeriodsIsAClearError() {
    #expect(throws: CycleError.noPeriods) {
      try CyclePrediction.predict(periods: [], today: LocalDate("2026-01-01")!, count: 1)
    }
  }

  @Test func theCalendarMarksLoggedAndPredictedDays() throws {
    let logged = periods(["2026-01-01", "2026-01-29", "2026-02-26", "2026-03-26"], length: 5)
    let today = LocalDate("2026-04-02")!
    let p = try CyclePrediction.predict(periods: logged, today: today, count: 2)
    let days = Dictionary(
      uniqueKeysWithValues: CycleCalendar.marks(year: 2026, month: 4, periods: logged, prediction: p, today: today)
        .map { ($0.0.description, $0.1) })
    #expect(days.count == 30)
    #expect(days["2026-04-01"] == [], "after the logged period ended on 30 March")
    #expect(days["2026-04-09"] == [.fertile, .ovulation])
    #expect(days["2026-04-04"] == [.fertile])
    #expect(days["2026-04-10"] == [.fertile])
    #expect(days["2026-04-11"] == [])
    #expect(days["2026-04-23"] == [.predicted])
    #expect(days["2026-04-27"] == [.predicted])
    #expect(days["2026-04-28"] == [])
  }
}
