import Core
import Foundation
import Storage
import Testing

@testable import Records

@Suite struct TrendTests {
  let today = LocalDate("2026-11-25")!  // a Wednesday

  @Test func daysEndTodayAndCompareWithTheirGoal() {
    let totals = [LocalDate("2026-11-24")!: 9000.0, LocalDate("2026-11-25")!: 3000]
    let rows = Trend.rows(.days(3), today: today, totals: totals, goal: { _ in 8000 })
    #expect(rows.map(\.label) == ["2026-11-23", "2026-11-24", "2026-11-25"])
    #expect(rows.map(\.total) == [nil, 9000, 3000], "no data on the 23rd: not 0")
    #expect(rows.map(\.met) == [nil, true, false])
    #expect(rows.map(\.daysWithData) == [0, 1, 1])
    #expect(rows[0].goal == 8000, "a day without data still shows its goal")
  }

  @Test func weeksAreISOWeeksAndTheCurrentOneCountsItsDaysSoFar() {
    var totals: [LocalDate: Double] = [:]
    for d in 0..<30 { totals[LocalDate("2026-10-27")!.adding(days: d)] = 1000 }
    let rows = Trend.rows(.weeks(2), today: today, totals: totals, goal: { _ in 900 })
    #expect(rows.map(\.label) == ["2026-W47", "2026-W48"])
    #expect(rows[0].from == LocalDate("2026-11-16")! && rows[0].through == LocalDate("2026-11-22")!)
    #expect(rows[1].through == today, "the week under way ends today")
    #expect(rows[1].total == 3000 && rows[1].goal == 2700 && rows[1].daysMet == 3)
    // A week with data on two of its days compares them with two days' goals.
    let partial = Trend.rows(
      .weeks(1), today: today, totals: [LocalDate("2026-11-23")!: 500, LocalDate("2026-11-24")!: 1000],
      goal: { _ in 900 })
    #expect(partial[0].total == 1500 && partial[0].goal == 1800 && partial[0].daysWithData == 2)
    // Week 1 of 2027 starts on Monday 4 January; 1 January 2027 is in 2026's week 53.
    let january = Trend.rows(.weeks(2), today: LocalDate("2027-01-05")!, totals: [:], goal: { _ in nil })
    #expect(january.map(\.label) == ["2026-W53", "2027-W01"])
    #expect(january.allSatisfy { $0.goal == nil && $0.met == nil })
  }

  @Test func monthsAreCalendarMonthsAcrossAYearEnd() {
    let rows = Trend.rows(.months(3), today: LocalDate("2027-01-10")!, totals: [:], goal: { _ in 1 })
    #expect(rows.map(\.label) == ["2026-11", "2026-12", "2027-01"])
    #expect(rows[0].through == LocalDate("2026-11-30")!)
    #expect(rows[1].goal == 31)
    #expect(rows[2].goal == 10)
  }

  @Test func goalsComeFromGoalsOrTheRings() throws {
    let t = try TestAccount()
    let now = t.local("2026-11-25 20:00")
    let health = HealthStore(db: t.db, account: t.account, now: now, calendar: t.calendar)
    try health.add(type: "steps", value: 7000, at: t.local("2026-11-25 09:00"))
    try health.add(type: "active-energy-kcal", value: 500, at: t.local("2026-11-24 09:00"))
    let goals = GoalStore(db: t.db, account: t.account, now: now, calendar: t.calendar)
    try goals.add(.steps, target: 10000, title: nil)
    try goals.add(.steps, target: 6000, title: nil)
    let steps = try goals.trend(.steps, .days(2), today: LocalDate("2026-11-25")!, goal: nil)
    #expect(steps.rows.map(\.goal) == [6000, 6000], "the smallest steps goal")
    #expect(steps.rows.map(\.met) == [nil, true], "no steps on the 24th: no data, not a goal missed")
    try t.db.execute(
      "INSERT INTO activity_summary (id, account_id, date, move_kcal, move_kcal_goal) VALUES ('as', 'acc', '2026-11-24', 500, 450)"
    )
    let energy = try goals.trend(.energy, .days(2), today: LocalDate("2026-11-25")!, goal: nil)
    #expect(energy.rows.map(\.goal) == [450, nil])
    #expect(energy.rows.map(\.met) == [true, nil])
    #expect(
      try goals.trend(.energy, .days(2), today: LocalDate("2026-11-25")!, goal: 600).rows.map(\.met) == [false, nil])
  }
}
