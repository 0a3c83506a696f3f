import Core
import Foundation
import Testing

@testable import Records

@Suite struct CyclePauseTests {
  func periods(_ starts: [String], length: Int = 5) -> [Period] {
    starts.map { s in Period(start: LocalDate(s)!, end: LocalDate(s)!.adding(days: length - 1)) }
  }

  func pause(_ from: String, _ to: String?, _ reason: CyclePause.Reason = .pregnancy) -> CyclePause {
    CyclePause(from: LocalDate(from)!, to: to.map { LocalDate($0)! }, reason: reason)
  }

  // Cycles 28, 28, 40 (in a pause), 28, 28.
  let starts = ["2025-01-01", "2025-01-29", "2025-02-26", "2025-04-07", "2025-05-05", "2025-06-02"]

  @Test func cyclesOverlappingAPauseAreLeftOutOfTheStatistics() throws {
    let all = try CyclePrediction.predict(periods: periods(starts), today: LocalDate("2025-06-10")!, count: 1)
    #expect(all.meanCycle == 30, "28, 28, 40, 28, 28 without the pause")
    #expect(all.leftOut.isEmpty)

    let p = try CyclePrediction.predict(
      periods: periods(starts), pauses: [pause("2025-03-10", "2025-03-20", .contraception)],
      today: LocalDate("2025-06-10")!, count: 1)
    #expect(p.basedOnCycles == 4)
    #expect(p.meanCycle == 28)
    #expect(p.sd == 0)
    #expect(p.leftOut == [.init(start: LocalDate("2025-02-26")!, days: 40, reason: .paused)])
    #expect(p.next.first?.start.description == "2025-06-30")
  }

  @Test func nothingIsPredictedWhilePaused() throws {
    let p = try CyclePrediction.predict(
      periods: periods(starts), pauses: [pause("2025-06-20", nil)], today: LocalDate("2025-07-15")!, count: 3)
    #expect(p.next.isEmpty)
    #expect(p.paused?.reason == .pregnancy)
  }

  @Test func afterAPauseWithNoPeriodSincePredictionsCountFromItsEnd() throws {
    let p = try CyclePrediction.predict(
      periods: periods(starts), pauses: [pause("2025-06-20", "2026-03-31")], today: LocalDate("2026-04-05")!, count: 1)
    #expect(p.paused == nil)
    #expect(p.next.first?.start == LocalDate("2026-04-01")!.adding(days: p.meanCycle))
  }

  @Test func excludeAndIncludeACycle() throws {
    var list = periods(starts)
    list[2].excluded = true
    let p = try CyclePrediction.predict(periods: list, today: LocalDate("2025-06-10")!, count: 1)
    #expect(p.leftOut.map(\.reason) == [.excluded])
    #expect(p.meanCycle == 28)
    list[2].excluded = false
    #expect(try CyclePrediction.predict(periods: list, today: LocalDate("2025-06-10")!, count: 1).meanCycle == 30)
  }

  @Test func backtestRowsArePredictionsFromTheEarlierPeriodsAlone() throws {
    // Irregular on purpose: 27, 31, 26, 33, 29, 30 days.
    var day = LocalDate("2025-01-03")!
    var list: [Period] = []
    for gap in [27, 31, 26, 33, 29, 30, 0] {
      list.append(Period(start: day, end: day.adding(days: 4)))
      day = day.adding(days: gap)
    }
    let b = try CycleBacktest.run(periods: list, pauses: [])
    #expect(b.rows.count == list.count - 3)
    for (k, row) in zip(3..., b.rows) {
      let alone = try CyclePrediction.predict(periods: Array(list[..<k]), today: row.asOf, count: 1)
      #expect(row.predicted == alone.next.first?.start)
      #expect(row.range == alone.next.first?.startRange)
      #expect(row.start == list[k].start)
      #expect(row.asOf == list[k - 1].end!.adding(days: 1))
    }
    let errors = b.rows.compactMap(\.errorDays)
    #expect(errors.count == 4)
    #expect(b.meanAbsoluteError == Double(errors.map(abs).reduce(0, +)) / 4)
    #expect(b.inRangeShare == Double(b.rows.filter { $0.inRange == true }.count) / 4)
    // By hand: the fourth comes 26 days after the third, predicted at the 28-day default.
    #expect(b.rows[0].errorDays == -2)
  }

  @Test func backtestLeavesOutTheCyclesLeftOut() throws {
    var list = periods(starts)
    list[3].excluded = true
    let b = try CycleBacktest.run(periods: list, pauses: [pause("2025-03-10", "2025-03-20")])
    #expect(b.rows.map(\.leftOut) == [.paused, .excluded, nil])
    #expect(b.counted.count == 1)
    #expect(throws: CycleError.tooFewPeriods) { try CycleBacktest.run(periods: Array(list.prefix(3)), pauses: []) }
  }
}
