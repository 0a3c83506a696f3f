import Auth
import Core
import Foundation
import Replication
import Schema
import Storage
import TestImages
import Testing

@testable import Records

/// Every public write API of the domain records what it wrote in the outbox, in the same
/// transaction: nothing can change a synced row without the change being sent.
@Suite struct ChangeTrackingTests {
  let db: Database
  let account = Account(id: "acc", email: "track@example.org", name: nil)
  let now = ISO8601.date(from: "2026-11-22T09:00:00Z")!
  let calendar: Calendar = {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "Europe/Berlin")!
    return c
  }()

  init() throws {
    db = try Database.inMemory()
    try VitalSchema.migrator.migrate(db)
    try db.execute(
      "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, 'x', ?)", account.id, account.email, now
    )
  }

  /// Outbox entries per dataset since the last call.
  func drain() throws -> [String: Int] {
    let rows = try db.query("SELECT dataset, count(*) FROM sync_outbox GROUP BY dataset") {
      (try $0.get(0, as: String.self), try $0.get(1, as: Int.self))
    }
    try db.execute("DELETE FROM sync_outbox")
    return Dictionary(uniqueKeysWithValues: rows)
  }

  /// Every row of every synced table has field clocks: no row was written around the Replica.
  func expectEveryRowTracked(sourceLocation: SourceLocation = #_sourceLocation) throws {
    for dataset in VitalSchema.datasets {
      let rows = try db.scalar(Int.self, "SELECT count(*) FROM \(dataset.table)") ?? 0
      let tracked =
        try db.scalar(
          Int.self,
          "SELECT count(*) FROM \(dataset.table) t JOIN sync_row s ON s.dataset = ? AND s.row_id = t.\(dataset.key) AND s.account_id = t.account_id",
          dataset.name) ?? 0
      #expect(rows == tracked, "\(dataset.name): \(rows - tracked) rows without clocks", sourceLocation: sourceLocation)
    }
  }

  @Test func everyWriteAPIFillsTheOutbox() throws {
    let profiles = ProfileStore(db: db, account: account, now: now)
    var profile = Profile()
    profile.bloodType = BloodType("A+")
    profile.sex = .female
    try profiles.save(profile)
    #expect(try drain() == ["profile": 3])  // abo, rhesus, sex: only what differs from the defaults

    try profiles.setAvatar(TestImages.png(width: 2, height: 2))
    #expect(try drain() == ["blob": 3, "profile": 1])
    try profiles.clearAvatar()
    // No undo could point at the old avatar again (no change is open): its blob goes for everyone.
    #expect(try drain() == ["profile": 1, "blob": 1])

    let donations = DonationStore(db: db, account: account, now: now, calendar: calendar)
    let answers = Dictionary(uniqueKeysWithValues: Questionnaire.applicable(sex: .female).map { ($0.id, false) })
    try donations.save(try Questionnaire.evaluate(answers, sex: .female, region: .de, now: now, calendar: calendar))
    #expect(try drain() == ["questionnaire": 5])

    let booked = try donations.book(
      at: now.addingTimeInterval(7 * 86_400), place: "DRK", kind: .wholeBlood, profile: profile, periodStarts: [])
    #expect(try drain() == ["donation": 11], "six fields and five measurements")
    _ = try donations.cancel(booked.id)
    #expect(try drain() == ["donation": 1], "only the status changed")
    _ = try donations.record(at: now.addingTimeInterval(-90 * 86_400), place: "DRK", kind: .plasma, notes: "ok")
    #expect(try drain() == ["donation": 11])
    _ = try donations.book(
      at: now.addingTimeInterval(8 * 86_400), place: "DRK", kind: .wholeBlood, profile: profile, periodStarts: [])
    _ = try drain()
    _ = try donations.complete(nil, at: now)
    #expect(try drain() == ["donation": 2], "status and completed_at")

    let csv =
      "id,kind,status,scheduled_at,completed_at,place,notes\r\n"
      + "0b7a2a5e-1c1d-4a53-9b9e-6b0d2f1e1a11,platelets,completed,,2026-01-05T10:00:00+01:00,Imported,\r\n"
    _ = try donations.importCSV(Data(csv.utf8))
    #expect(try drain() == ["donation": 1], "an import queues each new record whole")

    let periods = PeriodStore(db: db, account: account, now: now, calendar: calendar)
    try periods.log(start: LocalDate("2026-11-01")!, end: nil)
    #expect(try drain() == ["period": 2])
    try periods.log(start: LocalDate("2026-11-01")!, end: LocalDate("2026-11-05")!)
    #expect(try drain() == ["period": 2])
    try periods.remove(start: LocalDate("2026-11-01")!)
    #expect(try drain() == ["period": 1])

    let meds = MedicationStore(db: db, account: account, now: now, calendar: calendar)
    _ = try meds.add(name: "Iron", times: ["10:30"], days: nil, dose: "1", stock: 30, refillAt: nil)
    #expect(try drain() == ["medication": 20], "every column of the plan, limits and pauses")
    _ = try meds.take("iron", at: nil)
    #expect(try drain() == ["dose": 9], "with shift, over_limit and recorded")
    try meds.refill("Iron", stock: 60)
    #expect(try drain() == ["medication": 2])
    try meds.remove("Iron")
    #expect(try drain() == ["medication": 1])

    try HealthStore(db: db, account: account, now: now, calendar: calendar).add(type: "steps", value: 10, at: nil)
    #expect(try drain() == ["health_sample": 6, "health_source": 3], "the first sample by hand names its source")
    let goals = GoalStore(db: db, account: account, now: now, calendar: calendar)
    let goal = try goals.add(.steps, target: 8000, title: nil)
    #expect(try drain() == ["goal": 5])
    try goals.remove(goal.id)
    #expect(try drain() == ["goal": 1])
    let catalogue = #"{"items":[{"id":"1","title":"t","type":"step","goal":500}]}"#
    _ = try goals.importCatalogue(Data(catalogue.utf8))
    #expect(try drain() == ["goal": 5])
    try expectEveryRowTracked()
  }

  @Test func aFailedWriteLeavesNoOutboxEntry() throws {
    let donations = DonationStore(db: db, account: account, now: now, calendar: calendar)
    #expect(throws: (any Error).self) {
      _ = try donations.record(at: now.addingTimeInterval(86_400), place: "future", kind: .plasma, notes: nil)
    }
    let bad =
      "id,kind,status,scheduled_at,completed_at,place,notes\r\n"
      + "0b7a2a5e-1c1d-4a53-9b9e-6b0d2f1e1a11,platelets,completed,,2026-01-05T10:00:00+01:00,Good,\r\n"
      + "1b7a2a5e-1c1d-4a53-9b9e-6b0d2f1e1a11,platelets,completed,,not a date,Bad,\r\n"
    #expect(throws: (any Error).self) { _ = try donations.importCSV(Data(bad.utf8)) }
    #expect(try drain() == [:])
    try expectEveryRowTracked()
  }
}
