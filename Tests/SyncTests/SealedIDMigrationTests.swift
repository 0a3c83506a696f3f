import Cryptography
import Foundation
import Replication
import Schema
import Storage
import Testing

@testable import Sync
@testable import SyncHTTP

/// Record ids moved from Vital's own SIV construction (`e1.`) to AES-SIV (`e2.`): old ids on a
/// server still open, and an upgraded device sends every record again under its new id.
@Suite struct SealedIDMigrationTests {
  static let phrase = "correct sync passphrase 1"

  /// Migration 0010 queues every record of an account that has a sync key, and only those.
  @Test func upgradingQueuesEveryRecordOfAnEncryptedAccount() throws {
    let db = try Database.inMemory()
    try Migrator(Array(VitalSchema.migrator.migrations.prefix(9))).migrate(db)
    for (account, email) in [("enc", "e@example.org"), ("plain", "p@example.org")] {
      try db.execute(
        "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, 'x', ?)", account, email, Date())
      let replica = Replica(db: db, accountID: account, now: Date())
      try replica.write(.period, id: "\(account)-1", ["start": .text("2026-01-01"), "end": .null])
      try replica.write(.period, id: "\(account)-2", ["start": .text("2026-02-01"), "end": .null])
      try replica.acknowledge(upTo: Int64.max)
    }
    try db.execute(
      "INSERT INTO sync_key (account_id, data_key, wrapped) VALUES ('enc', ?, '{}')", Data(repeating: 7, count: 32))
    #expect(try VitalSchema.migrator.migrate(db).first == "0010_siv_record_ids")
    let queued = try db.query("SELECT account_id, row_id, field FROM sync_outbox ORDER BY row_id") {
      "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: String.self)) \(try $0.get(2, as: String.self))"
    }
    #expect(queued == ["enc enc-1 *", "enc enc-2 *"])
  }

  /// A record a device of an earlier version left under an `e1.` id, and one sealed now under
  /// `e2.`: a new device with the passphrase opens both.
  @Test func idsSealedEitherWayOpenOnANewDevice() async throws {
    try await LiveServer.with { url in
      let a = try Device(email: "siv@example.org", url: url)
      try await a.register()
      _ = try await a.client.turnOnEncryption(passphrase: Self.phrase, token: a.token, logN: 14)
      _ = try a.donation(id: "new-1", place: "sealed with AES-SIV")
      try await a.sync()

      // What an earlier Vital sent: the same sealing of values, under an `e1.` id.
      let syncKey = try SyncKey.load(a.db, accountID: a.accountID)
      let sealer = try Sealer(key: try #require(syncKey).key)
      let wireID = try sealer.legacyIDs.seal(dataset: "donation", id: "old-1")
      let hlc = HLC.next(after: nil, now: Date(), node: "00000000000000aa").description
      let values: [String: WireValue] = [
        "kind": .string("whole-blood"), "status": .string("completed"),
        "completed_at": .string("2025-12-01T10:00:00.000Z"), "place": .string("sealed the old way"),
      ]
      var fields = WireFields()
      for (name, value) in values {
        fields[name] = WireField(
          value: try sealer.sealValue(value, aad: Sealer.aad("donation", wireID, name, hlc)), hlc: hlc)
      }
      let body = try JSONEncoder().encode(
        SyncRequest(since: nil, changes: [WireChange(dataset: "donation", id: wireID, fields: fields)]))
      let (status, text) = try await RawHTTP(url: url).send("POST", "/v1/sync", body: body, token: a.token)
      #expect(status == 200, "\(text)")

      let b = try Device(email: "siv@example.org", url: url)
      try await b.login()
      _ = try await b.client.unlock(passphrase: Self.phrase, token: b.token)
      try await b.sync()
      let places = try b.db.query("SELECT id, place FROM donation ORDER BY id") {
        "\(try $0.get(0, as: String.self)): \(try $0.get(1, as: String.self))"
      }
      #expect(places == ["new-1: sealed with AES-SIV", "old-1: sealed the old way"])
    }
  }
}
