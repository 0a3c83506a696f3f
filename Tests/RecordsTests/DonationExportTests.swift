import Foundation
import Storage
import Testing

@testable import Records

/// The donor CSV export: every row once, newest first, ties by id, rows without a date last,
/// read and made into lines a batch at a time.
@Suite struct DonationExportTests {
  @Test func rowsOfManyBatchesComeInTheIndexOrderOnce() throws {
    let t = try TestAccount()
    let store = DonationStore(db: t.db, account: t.account, now: t.local("2026-12-01 09:00"), calendar: t.calendar)
    // Random ids, dates that repeat (ties go by id), a cancelled appointment with no date at
    // all, places that need quoting: more rows than two batches hold.
    var generator = SystemRandomNumberGenerator()
    let rows = 5_000
    for i in 0..<rows {
      let id = UUID().uuidString.lowercased()
      let minute = Int.random(in: 0..<600, using: &generator)
      let date = String(
        format: "2025-%02d-%02dT%02d:%02d:00.000Z", 1 + minute % 12, 1 + minute % 28, minute / 60, minute % 60)
      // The key is the completion, else the appointment: some rows have both, and one an empty
      // completion, which SQLite orders after every date and before no date.
      let (status, scheduled, completed): (String, String?, String?) =
        switch i % 10 {
        case 0: ("cancelled", nil, nil)
        case 1: ("cancelled", date, nil)
        case 2: ("completed", "2025-06-30T10:00:00.000Z", date)
        case 3 where i < 10: ("completed", "2025-06-30T10:00:00.000Z", "")
        default: ("completed", nil, date)
        }
      try t.db.execute(
        """
        INSERT INTO donation (id, account_id, kind, status, scheduled_at, completed_at, place, notes, updated_at)
        VALUES (?, ?, 'plasma', ?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z')
        """, id, t.account.id, status, scheduled, completed, i % 3 == 0 ? "Centre \(i % 7), Hall \"B\"" : "Centre",
        i % 5 == 0 ? "note\nover two lines" : nil)
    }
    var output: [UInt8] = []
    #expect(try store.exportCSV { output += $0 } == rows)
    let lines = try CSV.parse(Data(output))
    #expect(lines.count == rows + 1)
    #expect(lines[0].fields == DonationStore.csvHeader)
    let expected = try t.db.query(
      "SELECT id FROM donation WHERE account_id = ? ORDER BY coalesce(completed_at, scheduled_at) DESC, id",
      t.account.id
    ) { try $0.get(0, as: String.self) }
    #expect(lines.dropFirst().map { $0.fields[0] } == expected)
    // The rows without a date are the last ones, and quoted fields come back as they were.
    #expect(lines.suffix(rows / 10).allSatisfy { $0.fields[3].isEmpty && $0.fields[4].isEmpty })
    #expect(lines.contains { $0.fields[5] == "Centre 3, Hall \"B\"" && $0.fields[6] == "note\nover two lines" })
  }
}
