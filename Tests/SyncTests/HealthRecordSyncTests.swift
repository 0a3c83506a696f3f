import Auth
import Core
import Foundation
import Records
import Storage
import Testing

@testable import Interchange

/// Cycle and medication records travel like every other user-owned table.
@Suite struct HealthRecordSyncTests {

  @Test func periodsMedicationsAndDosesConverge() async throws {
    try await LiveServer.with { url in
      let a = try Device(email: "meds@example.org", url: url)
      let b = try Device(email: "meds@example.org", url: url)
      try await a.register()
      try await b.login()
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      let now = Date()
      func account(_ d: Device) -> Account { Account(id: d.accountID, email: d.email, name: nil) }
      let periodsA = PeriodStore(db: a.db, account: account(a), now: now, calendar: calendar)
      let today = LocalDate(now, in: calendar)
      try periodsA.log(start: today.adding(days: -3), end: nil)
      // Scheduled one minute ago, so both devices find the same dose.
      let time = calendar.dateComponents([.hour, .minute], from: now.addingTimeInterval(-60))
      let hhmm = String(format: "%02d:%02d", time.hour!, time.minute!)
      let medsA = MedicationStore(db: a.db, account: account(a), now: now.addingTimeInterval(-3600), calendar: calendar)
      _ = try medsA.add(name: "Iron", times: [hhmm], days: nil, dose: "1", stock: 10, refillAt: nil)
      try await a.sync()
      try await b.sync()
      #expect(try b.snapshot() == a.snapshot())

      // Both devices record the same dose, and B ends the period: one dose record, and the stock
      // counts the take once.
      _ = try MedicationStore(db: a.db, account: account(a), now: now, calendar: calendar).take("iron", at: nil)
      usleep(5000)
      let medsB = MedicationStore(db: b.db, account: account(b), now: now, calendar: calendar)
      _ = try medsB.take("Iron", at: nil)
      try PeriodStore(db: b.db, account: account(b), now: now, calendar: calendar).log(
        start: today.adding(days: -3), end: today)
      try await b.sync()
      try await a.sync()
      try await b.sync()
      #expect(try b.snapshot() == a.snapshot())
      #expect(try a.db.scalar(Int.self, "SELECT count(*) FROM dose") == 1)
      #expect(try medsB.currentStock(try medsB.find("iron")) == 9)
      #expect(try periodsA.list().first?.end == today)
    }
  }

  @Test func importedHealthDataSyncsWholeAndASecondImportAddsNothing() async throws {
    try await LiveServer.with { url in
      let a = try Device(email: "import@example.org", url: url)
      let b = try Device(email: "import@example.org", url: url)
      try await a.register()
      try await b.login()
      let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apple-health/healthkit-to-sqlite-export.xml").path
      let first = try AppleHealthImport(db: a.db, accountID: a.accountID, now: Date()).run(path: fixture)
      #expect(first.inserted == 5)
      let pushed = try await a.sync()
      #expect(pushed.pushed == 8, "5 records, the 2 sources of their samples and the route inside the workout")
      try await b.sync()
      let (sa, sb) = (try a.snapshot(), try b.snapshot())
      #expect(sb == sa, "\(sa.filter { !sb.contains($0) }) vs \(sb.filter { !sa.contains($0) })")
      #expect(try b.db.scalar(Int.self, "SELECT count(*) FROM workout") == 1)
      let second = try AppleHealthImport(db: b.db, accountID: b.accountID, now: Date()).run(path: fixture)
      #expect(second.inserted == 0 && second.duplicates == 5, "content ids match across devices")
      #expect(try b.replica.pendingCount() == 0)
    }
  }
}
