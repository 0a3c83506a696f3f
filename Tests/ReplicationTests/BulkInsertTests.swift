import Foundation
import Replication
import Schema
import Storage
import Testing

/// A bulk insert takes each id once: a slice whose ids all come back new skips the lookup of
/// which did, so a slice with an id twice, or with ids stored already, must still be told apart.
@Suite struct BulkInsertTests {
  let account: TestAccount
  let replica: Replica

  init() throws {
    account = try TestAccount()
    replica = Replica(db: account.db, accountID: account.account.id, now: Date(timeIntervalSince1970: 1_790_000_000))
  }

  func donation(_ id: String, place: String) -> (id: String, values: [DatabaseValue]) {
    let values: [String: DatabaseValue] = [
      "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
      "place": .text(place),
    ]
    return (id, Dataset.donation.fields.map { values[$0] ?? .null })
  }

  func stored() throws -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: try account.db.query("SELECT id, place FROM donation") {
        (try $0.get(0, as: String.self), try $0.get(1, as: String.self))
      })
  }

  func wholeRecordEntries() throws -> [String] {
    try account.db.query("SELECT row_id FROM sync_outbox WHERE field = '*' ORDER BY seq") {
      try $0.get(0, as: String.self)
    }
  }

  @Test func anIdTwiceInOneBatchIsOneRecordWrittenOnce() throws {
    // 64 records make one full slice, 130 make three; the repeat falls in the first and the last.
    var batch = (0..<130).map { donation(String(format: "id-%03d", $0), place: "Centre \($0)") }
    batch[10] = donation("id-003", place: "the same id again")
    batch[129] = donation("id-128", place: "the same id again")
    let inserted = try account.db.transaction { _ in try replica.insertNew(.donation, batch) }
    #expect(inserted == 128)
    let rows = try stored()
    #expect(rows.count == 128)
    #expect(rows["id-003"] == "Centre 3", "the first of the two is the one kept")
    #expect(rows["id-128"] == "Centre 128")
    #expect(try wholeRecordEntries().count == 128, "one outbox entry per record")
  }

  @Test func idsStoredAlreadyAreLeftAsTheyAre() throws {
    let first = (0..<100).map { donation(String(format: "id-%03d", $0), place: "first") }
    #expect(try account.db.transaction { _ in try replica.insertNew(.donation, first) } == 100)
    // Every other id is new: no slice of the second batch comes back whole.
    let second = (50..<150).map { donation(String(format: "id-%03d", $0), place: "second") }
    #expect(try account.db.transaction { _ in try replica.insertNew(.donation, second) } == 50)
    let rows = try stored()
    #expect(rows.count == 150)
    #expect(rows.filter { $0.value == "first" }.count == 100)
    #expect(rows.filter { $0.value == "second" }.keys.sorted() == (100..<150).map { String(format: "id-%03d", $0) })
    #expect(try wholeRecordEntries().count == 150)
  }
}
