import Core
import Foundation
import Storage
import Testing

@testable import Records

@Suite struct MedicationStoreTests {
  let t: TestAccount

  init() throws { t = try TestAccount() }

  func store(at local: String) -> MedicationStore {
    MedicationStore(db: t.db, account: t.account, now: t.local(local), calendar: t.calendar)
  }

  @Test func aWeekOfTwiceDailyDosesCountsExactly() throws {
    // Added Monday 07:00, so the week holds 14 doses: 08:00 and 20:00 from Mon 23 to Sun 29 March.
    _ = try store(at: "2026-03-23 07:00").add(
      name: "Ramipril", times: ["20:00", "08:00"], days: nil, dose: "5 mg", stock: nil, refillAt: nil)
    _ = try store(at: "2026-03-23 08:10").take("ramipril", at: nil)
    _ = try store(at: "2026-03-23 21:00").skip("Ramipril", at: nil)
    _ = try store(at: "2026-03-24 09:00").take("Ramipril", at: t.local("2026-03-24 07:30"))
    // Wednesday and Thursday forgotten entirely.
    _ = try store(at: "2026-03-27 08:00").take("Ramipril", at: nil)
    _ = try store(at: "2026-03-27 20:00").take("Ramipril", at: nil)
    _ = try store(at: "2026-03-28 12:00").skip("Ramipril", at: t.local("2026-03-28 09:00"))
    // Sunday 29 March, the clocks go forward at 02:00: the doses stay at 08:00 and 20:00 local.
    _ = try store(at: "2026-03-29 08:02").take("Ramipril", at: nil)
    _ = try store(at: "2026-03-29 20:30").take("Ramipril", at: nil)

    let end = store(at: "2026-03-29 23:00")
    let stats = try #require(try end.adherence(days: 7).scheduled.first?.counts)
    #expect(stats.scheduled == 14)
    #expect(stats.taken == 6)
    #expect(stats.skipped == 2)
    #expect(stats.missed == 6, "Tue 20:00, Wed and Thu both, Sat 20:00")
    #expect(stats.share == 6.0 / 14.0)

    let history = try end.history()
    #expect(history.count == 14)
    let sunday = history.filter { LocalDate($0.scheduledAt, in: t.calendar).description == "2026-03-29" }
    #expect(
      sunday.map { ISO8601.string(from: $0.scheduledAt, timeZone: t.calendar.timeZone) } == [
        "2026-03-29T08:00:00+02:00", "2026-03-29T20:00:00+02:00",
      ])
  }

  @Test func aDoseNotYetOverdueIsNeitherMissedNorCounted() throws {
    _ = try store(at: "2026-03-23 07:00").add(
      name: "Iron", times: ["08:00", "20:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    let stats = try store(at: "2026-03-23 19:00").adherence(days: 1).scheduled.first?.counts
    #expect(stats?.scheduled == 1 && stats?.open == 1)
    #expect(stats?.missed == 0, "08:00 is missed only at 20:00")
    #expect(stats?.share == nil, "nothing decided yet")
    #expect(try store(at: "2026-03-23 20:00").adherence(days: 1).scheduled.first?.counts.missed == 1)
  }

  @Test func weekdaySchedulesOnlyCountTheirDays() throws {
    _ = try store(at: "2026-03-22 12:00").add(
      name: "Methotrexate", times: ["09:00"], days: ["mon,thu"], dose: nil, stock: nil, refillAt: nil)
    let stats = try store(at: "2026-04-04 12:00").adherence(days: 14).scheduled
    #expect(stats.first?.counts.scheduled == 4, "Mon 23, Thu 26, Mon 30 March, Thu 2 April")
    #expect(throws: MedicationError.noDoseNear("Methotrexate")) {
      _ = try store(at: "2026-03-25 09:00").take("Methotrexate", at: nil)
    }
  }

  @Test func doubleTakesAndFarTimesAreRefused() throws {
    let s = store(at: "2026-03-23 07:00")
    _ = try s.add(name: "Iron", times: ["08:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    _ = try store(at: "2026-03-23 08:00").take("iron", at: nil)
    #expect(throws: MedicationError.alreadyRecorded(status: "taken", scheduled: "today 08:00")) {
      _ = try store(at: "2026-03-23 09:00").take("iron", at: nil)
    }
    #expect(throws: MedicationError.inTheFuture) {
      _ = try store(at: "2026-03-23 09:00").skip("iron", at: t.local("2026-03-24 08:00"))
    }
    #expect(throws: MedicationError.duplicateName("IRON")) {
      _ = try s.add(name: "IRON", times: ["09:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    }
    #expect(throws: MedicationError.badTime("25:00")) {
      _ = try s.add(name: "X", times: ["25:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    }
    #expect(throws: MedicationError.badTime("+1:30")) {
      _ = try s.add(name: "X", times: ["+1:30"], days: nil, dose: nil, stock: nil, refillAt: nil)
    }
    #expect(throws: MedicationError.badDay("someday")) {
      _ = try s.add(name: "X", times: ["09:00"], days: ["mon,someday"], dose: nil, stock: nil, refillAt: nil)
    }
    #expect(try s.list().count == 1)
  }

  @Test func takingLowersTheStockAndWarnsAtTheThreshold() throws {
    _ = try store(at: "2026-03-23 07:00").add(
      name: "Iron", times: ["08:00", "20:00"], days: nil, dose: nil, stock: 8, refillAt: nil)
    let first = try store(at: "2026-03-23 08:00").take("Iron", at: nil)
    #expect(first.stock == 7)
    #expect(!first.refillDue, "the default threshold is three days of doses: 6")
    let second = try store(at: "2026-03-23 20:00").take("Iron", at: nil)
    #expect(second.stock == 6)
    #expect(second.refillDue)
    let refilled = try store(at: "2026-03-23 21:00").refill("Iron", stock: 30)
    #expect(try store(at: "2026-03-23 21:00").currentStock(refilled) == 30)
  }

  @Test func theStockLastsUntilTheLastDoseItCovers() throws {
    _ = try store(at: "2026-03-23 07:00").add(
      name: "Iron", times: ["08:00", "20:00"], days: ["mon,wed,fri"], dose: nil, stock: 5, refillAt: nil)
    _ = try store(at: "2026-03-23 08:05").take("Iron", at: nil)
    // Four left at Monday 09:00: Mon 20:00, Wed 08:00 and 20:00, Fri 08:00.
    let later = store(at: "2026-03-23 09:00")
    #expect(try later.stockLastsUntil(try later.find("Iron")) == t.local("2026-03-27 08:00"))
    // Skipped ahead of its time, Monday's evening dose takes nothing from the stock: Friday's
    // evening dose is now the last the four cover.
    _ = try store(at: "2026-03-23 19:00").skip("Iron", at: nil)
    let evening = store(at: "2026-03-23 19:05")
    #expect(try evening.stockLastsUntil(try evening.find("Iron")) == t.local("2026-03-27 20:00"))
    _ = try store(at: "2026-03-23 09:00").add(
      name: "Plenty", times: ["08:00"], days: nil, dose: nil, stock: 1000, refillAt: nil)
    #expect(try later.stockLastsUntil(try later.find("Plenty")) == nil, "beyond a year is not a date to give")
    _ = try store(at: "2026-03-23 09:00").add(
      name: "Uncounted", times: ["08:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    #expect(try later.stockLastsUntil(try later.find("Uncounted")) == nil)
  }

  @Test func removingAMedicationKeepsItsHistory() throws {
    _ = try store(at: "2026-03-23 07:00").add(
      name: "Iron", times: ["08:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    _ = try store(at: "2026-03-23 08:00").take("Iron", at: nil)
    try store(at: "2026-03-23 09:00").remove("Iron")
    #expect(try store(at: "2026-03-23 09:00").list().isEmpty)
    #expect(try store(at: "2026-03-25 09:00").history().map(\.status) == [.taken])
  }
}
