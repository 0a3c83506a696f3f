import Core
import Foundation
import Storage
import Testing

@testable import Records
@testable import Views

@Suite struct ReminderTests {
  let t: TestAccount

  init() throws { t = try TestAccount() }

  func engine(at local: String) -> ReminderEngine {
    ReminderEngine(db: t.db, account: t.account, now: t.local(local), calendar: t.calendar)
  }

  func iso(_ date: Date) -> String { ISO8601.string(from: date, timeZone: t.calendar.timeZone) }

  func book(_ local: String, now: String) throws -> Donation {
    let store = DonationStore(db: t.db, account: t.account, now: t.local(now), calendar: t.calendar)
    let answers = Dictionary(uniqueKeysWithValues: Questionnaire.applicable(sex: .male).map { ($0.id, false) })
    try store.save(
      try Questionnaire.evaluate(answers, sex: .male, region: .de, now: t.local(now), calendar: t.calendar))
    var profile = Profile()
    profile.sex = .male
    profile.weightKg = 80
    return try store.book(at: t.local(local), place: "DRK", kind: .wholeBlood, profile: profile, periodStarts: [])
  }

  @Test func appointmentRemindersKeepWallClockTimeAcrossTheSpringChange() throws {
    _ = try book("2026-03-29 09:00", now: "2026-03-20 12:00")
    let e = engine(at: "2026-03-20 12:00")
    let reminders = try e.reminders(from: t.local("2026-03-20 12:00"), to: t.local("2026-04-01 00:00"))
    #expect(reminders.map { iso($0.at) } == ["2026-03-28T09:00:00+01:00", "2026-03-29T07:00:00+02:00"])
    #expect(reminders.allSatisfy { $0.source == .donation })
  }

  @Test func anAppointmentOnTheFirstRemindsOnTheLastDayOfTheMonthBefore() throws {
    _ = try book("2026-05-01 01:00", now: "2026-04-20 12:00")
    let reminders = try engine(at: "2026-04-20 12:00").reminders(
      from: t.local("2026-04-20 12:00"), to: t.local("2026-05-02 00:00"))
    #expect(reminders.map { iso($0.at) } == ["2026-04-30T01:00:00+02:00", "2026-04-30T23:00:00+02:00"])
  }

  @Test func cancelledAndRemovedThingsLeaveNoReminder() throws {
    let booked = try book("2026-05-01 10:00", now: "2026-04-20 12:00")
    let meds = MedicationStore(db: t.db, account: t.account, now: t.local("2026-04-20 12:00"), calendar: t.calendar)
    _ = try meds.add(name: "Iron", times: ["08:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    let e = engine(at: "2026-04-20 12:00")
    let window = (t.local("2026-04-20 12:00"), t.local("2026-05-02 00:00"))
    #expect(Set(try e.reminders(from: window.0, to: window.1).map(\.source)) == [.donation, .medication])
    _ = try DonationStore(db: t.db, account: t.account, now: t.local("2026-04-20 12:00"), calendar: t.calendar).cancel(
      booked.id)
    try meds.remove("Iron")
    #expect(try e.reminders(from: window.0, to: window.1).isEmpty)
  }

  @Test func cycleRemindersStartOffAndComeAtEightThreeDaysBefore() throws {
    let periods = PeriodStore(db: t.db, account: t.account, now: t.local("2026-04-02 12:00"), calendar: t.calendar)
    for start in ["2026-01-01", "2026-01-29", "2026-02-26", "2026-03-26"] {
      try periods.log(start: LocalDate(start)!, end: LocalDate(start)!.adding(days: 4))
    }
    let e = engine(at: "2026-04-02 12:00")
    let window = (t.local("2026-04-02 12:00"), t.local("2026-04-30 00:00"))
    #expect(try e.reminders(from: window.0, to: window.1).isEmpty)
    try e.settings.set(.cycle, enabled: true)
    #expect(try e.reminders(from: window.0, to: window.1).map { iso($0.at) } == ["2026-04-20T08:00:00+02:00"])
  }

  @Test func aRefillReminderComesWhenTheStockReachesTheThreshold() throws {
    let meds = MedicationStore(db: t.db, account: t.account, now: t.local("2026-04-01 07:00"), calendar: t.calendar)
    _ = try meds.add(name: "Iron", times: ["08:00"], days: nil, dose: nil, stock: 5, refillAt: 3)
    for day in ["2026-04-01", "2026-04-02"] {
      _ = try MedicationStore(db: t.db, account: t.account, now: t.local("\(day) 08:05"), calendar: t.calendar).take(
        "Iron", at: nil)
    }
    let refills = try engine(at: "2026-04-02 09:00").reminders(
      from: t.local("2026-04-01 00:00"), to: t.local("2026-04-03 00:00")
    ).filter { $0.title.hasPrefix("Refill") }
    #expect(refills.map { iso($0.at) } == ["2026-04-02T08:05:00+02:00"])
  }

  @Test func notifyDeliversOnceAndReportsOldRemindersAsMissed() throws {
    let meds = MedicationStore(db: t.db, account: t.account, now: t.local("2026-04-01 07:00"), calendar: t.calendar)
    _ = try meds.add(name: "Iron", times: ["08:00", "20:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    func notify(_ local: String) throws -> ReminderDelivery.Outcome {
      try ReminderDelivery(engine: engine(at: local)).run { _, _ in }
    }
    #expect(try notify("2026-04-01 07:59").delivered.isEmpty)
    #expect(try notify("2026-04-01 08:00").delivered.map { iso($0.at) } == ["2026-04-01T08:00:00+02:00"])
    #expect(try notify("2026-04-01 08:01").delivered.isEmpty, "delivered once")
    // Two days without a run: the doses more than 12 hours ago are reported missed, once.
    let late = try notify("2026-04-03 09:00")
    #expect(
      late.missed.map { iso($0.at) } == [
        "2026-04-01T20:00:00+02:00", "2026-04-02T08:00:00+02:00", "2026-04-02T20:00:00+02:00",
      ])
    #expect(late.delivered.map { iso($0.at) } == ["2026-04-03T08:00:00+02:00"])
    let again = try notify("2026-04-03 09:01")
    #expect(again.missed.isEmpty && again.delivered.isEmpty)
  }

  @Test func aFailedDeliveryIsTriedAgain() throws {
    let meds = MedicationStore(db: t.db, account: t.account, now: t.local("2026-04-01 07:00"), calendar: t.calendar)
    _ = try meds.add(name: "Iron", times: ["08:00"], days: nil, dose: nil, stock: nil, refillAt: nil)
    struct Refused: Error {}
    let failed = try ReminderDelivery(engine: engine(at: "2026-04-01 08:00")).run { _, _ in throw Refused() }
    #expect(failed.failed == 1)
    let retried = try ReminderDelivery(engine: engine(at: "2026-04-01 08:01")).run { _, _ in }
    #expect(retried.delivered.count == 1)
  }

  @Test func theCalendarFileIsFoldedAndEscaped() throws {
    let place = "Blutspendedienst, Haus 3; Eingang Süd — bitte klingeln bei der Anmeldung im Erdgeschoss ✓"
    let item = CalendarItem(
      uid: "donation-x", source: .donation, title: "Blood donation", body: "line one\nline two", location: place,
      when: .instant(t.local("2026-03-29 09:00"), duration: 3600),
      alarms: [.init(at: t.local("2026-03-28 09:00"), trigger: "-P1D")])
    let text = ICalendar.document([item], stamp: t.local("2026-03-20 12:00"), product: "vital test")
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines.last == "")
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "only CRLF line ends")
    #expect(lines.allSatisfy { $0.utf8.count <= 75 })
    #expect(text.contains("DTSTART:20260329T070000Z"))
    #expect(text.contains("DESCRIPTION:line one\\nline two"))
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
    #expect(unfolded.contains("LOCATION:Blutspendedienst\\, Haus 3\\; Eingang Süd"))
    #expect(unfolded.contains("✓"), "no UTF-8 sequence is cut by a fold")
  }
}
