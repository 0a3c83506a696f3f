import Core
import Foundation
import Storage
import Testing

@testable import Interchange
@testable import Records

@Suite struct PeriodStoreTests {
  let t: TestAccount
  let store: PeriodStore

  init() throws {
    t = try TestAccount(onDisk: true)
    store = PeriodStore(db: t.db, account: t.account, now: t.local("2026-06-15 12:00"), calendar: t.calendar)
  }

  func day(_ s: String) -> LocalDate { LocalDate(s)! }

  @Test func periodsAreLoggedEndedAndRemoved() throws {
    try store.log(start: day("2026-05-01"), end: day("2026-05-05"))
    try store.log(start: day("2026-06-01"), end: nil)
    try store.log(start: day("2026-06-01"), end: day("2026-06-04"))
    #expect(
      try store.list().map { "\($0.start)-\($0.end?.description ?? "")" } == [
        "2026-05-01-2026-05-05", "2026-06-01-2026-06-04",
      ])
    try store.remove(start: day("2026-05-01"))
    #expect(try store.list().count == 1)
    #expect(throws: CycleError.notFound(start: "2026-05-01")) { try store.remove(start: day("2026-05-01")) }
  }

  @Test func overlapsReversalsAndFutureDaysAreRefused() throws {
    try store.log(start: day("2026-05-10"), end: day("2026-05-14"))
    #expect(throws: CycleError.overlaps(start: "2026-05-10", end: "2026-05-14")) {
      try store.log(start: day("2026-05-08"), end: day("2026-05-10"))
    }
    #expect(throws: CycleError.overlaps(start: "2026-05-10", end: "2026-05-14")) {
      try store.log(start: day("2026-05-01"), end: nil)
    }
    #expect(throws: CycleError.endBeforeStart(start: "2026-06-03", end: "2026-06-01")) {
      try store.log(start: day("2026-06-03"), end: day("2026-06-01"))
    }
    #expect(throws: CycleError.inTheFuture("2026-06-16")) { try store.log(start: day("2026-06-16"), end: nil) }
    try store.log(start: day("2026-06-10"), end: nil)
    #expect(throws: CycleError.stillOngoing(start: "2026-06-10")) { try store.log(start: day("2026-06-14"), end: nil) }
    #expect(try store.list().count == 2, "nothing half-written")
  }

  @Test func bookingRefusesTheFiveDaysAfterAPeriodStarted() throws {
    try store.log(start: day("2026-06-13"), end: nil)
    let now = t.local("2026-06-15 12:00")
    let donations = DonationStore(db: t.db, account: t.account, now: now, calendar: t.calendar)
    let answers = Dictionary(uniqueKeysWithValues: Questionnaire.applicable(sex: .female).map { ($0.id, false) })
    try donations.save(try Questionnaire.evaluate(answers, sex: .female, region: .de, now: now, calendar: t.calendar))
    var profile = Profile()
    profile.sex = .female
    profile.weightKg = 60
    #expect(throws: DonationError.duringPeriod(start: "2026-06-13", from: "2026-06-19")) {
      _ = try donations.book(
        at: t.local("2026-06-18 09:00"), place: "DRK", kind: .wholeBlood, profile: profile,
        periodStarts: try store.startDays())
    }
    let booked = try donations.book(
      at: t.local("2026-06-19 09:00"), place: "DRK", kind: .wholeBlood, profile: profile,
      periodStarts: try store.startDays())
    #expect(booked.status == .scheduled)
  }

  @Test func menstrualFlowRecordsBecomePeriodsOnce() throws {
    var xml = "<HealthData>\n"
    let days = ["2026-05-01", "2026-05-02", "2026-05-03", "2026-05-29", "2026-05-30", "2026-05-31", "2026-06-01"]
    for (i, day) in days.enumerated() {
      let value = i == 6 ? "HKCategoryValueMenstrualFlowNone" : "HKCategoryValueMenstrualFlowMedium"
      xml +=
        "<Record type=\"HKCategoryTypeIdentifierMenstrualFlow\" sourceName=\"Phone\" startDate=\"\(day) 08:00:00 +0200\" endDate=\"\(day) 08:00:00 +0200\" value=\"\(value)\"/>\n"
    }
    xml += "</HealthData>\n"
    let path = NSTemporaryDirectory() + "/flow-\(UUID().uuidString).xml"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(xml.utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = try AppleHealthImport(db: t.db, accountID: t.account.id, now: Date()).run(path: path)
    try store.log(start: day("2026-05-30"), end: day("2026-06-02"))
    let first = try store.importFromHealth(
      flowDays: HealthStore(store.scope).menstrualFlowDays(in: t.calendar))
    #expect(first == PeriodStore.HealthImport(found: 2, added: 1, unchanged: 0, conflicts: ["2026-05-29"]))
    #expect(try store.list().map { "\($0.start)-\($0.end!)" } == ["2026-05-01-2026-05-03", "2026-05-30-2026-06-02"])
    let again = try store.importFromHealth(
      flowDays: HealthStore(store.scope).menstrualFlowDays(in: t.calendar))
    #expect(again.added == 0 && again.unchanged == 1)
  }
}
