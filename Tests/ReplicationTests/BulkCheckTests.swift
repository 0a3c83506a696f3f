import Foundation
import Schema
import Storage
import Testing

@testable import Replication

/// A large batch is checked on another thread while it is written: a record its dataset refuses
/// still fails the whole batch with the check's reason, and leaves nothing behind.
@Suite struct BulkCheckTests {
  /// `count` donations; the one at `bad` (if any) has `field` set to `value`.
  func donations(_ count: Int, bad: Int? = nil, _ field: String = "", _ value: DatabaseValue = .null)
    -> [(id: String, values: [DatabaseValue])]
  {
    (0..<count).map { i in
      var values: [String: DatabaseValue] = [
        "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
        "place": .text("Centre \(i % 7)"),
      ]
      if i == bad { values[field] = value }
      return (String(format: "r%05d", i), Dataset.donation.fields.map { values[$0] ?? .null })
    }
  }

  func rows(_ db: Database) throws -> [Int] {
    try ["donation", "sync_row", "sync_outbox"].map { try db.scalar(Int.self, "SELECT count(*) FROM \($0)") ?? -1 }
  }

  // A kind no rule knows fails SQLite's CHECK as well, maybe before the check reaches it; a
  // place over its rule's 2,000 bytes passes SQLite and only the rule refuses it.
  // A record with a value too few is refused too, whatever reaches it first.
  @Test(arguments: [("kind", 9_000), ("place", 9_999), ("kind", 3), ("shape", 5_000)])
  func aRefusedRecordAnywhereInALargeBatchLeavesNothing(field: String, at bad: Int) throws {
    let account = try TestAccount()
    let replica = Replica(
      db: account.db, accountID: account.account.id, now: Date(timeIntervalSince1970: 1_790_000_000))
    let value = DatabaseValue.text(field == "kind" ? "juice" : String(repeating: "x", count: 2_001))
    var batch = donations(10_000, bad: bad, field, value)
    if field == "shape" { batch[bad].values.removeLast() }
    #expect(batch.count >= Replica.BackgroundCheck.from, "large enough to be checked beside the write")
    do {
      _ = try replica.insertNew(.donation, batch)
      Issue.record("a batch with a refused record was written")
    } catch let error as ReplicaError {
      guard case .invalid(let dataset, let id, let faulty, _) = error else {
        Issue.record("expected the check's reason, got \(error)")
        return
      }
      #expect(dataset == "donation" && id == batch[bad].id)
      #expect(faulty == (field == "shape" ? Dataset.donation.fields[0] : field))
    }
    #expect(try rows(account.db) == [0, 0, 0], "nothing of the batch stays")
    // The same batch without the fault goes in whole.
    #expect(try replica.insertNew(.donation, donations(10_000)) == 10_000)
    #expect(try rows(account.db) == [10_000, 10_000, 10_000])
  }
}
