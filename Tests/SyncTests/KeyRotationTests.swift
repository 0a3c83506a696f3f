import Foundation
import Testing

@testable import Sync
@testable import SyncHTTP

/// `vital remote rotate-key` against a real server on either backend: after a device is lost,
/// a new key replaces the old one; the old key opens nothing the server holds, the lost device
/// is refused, the others go on with the passphrase and a new device joins with it.
@Suite struct KeyRotationTests {
  static let logN = 14
  static let phrase = "correct sync passphrase 1"
  static let newPhrase = "after the phone was lost"

  func joined(_ email: String, _ url: URL) async throws -> Device {
    let device = try Device(email: email, url: url)
    try await device.login()
    _ = try await device.client.unlock(passphrase: Self.phrase, token: device.token)
    try await device.sync()
    return device
  }

  /// How many of the stored records `key` opens.
  func opened(by key: DataKey, in storage: ServerStorage) throws -> (opened: Int, of: Int) {
    let sealer = try Sealer(key: key)
    let records = try storage.records()
    let opened = try records.filter { record in
      let change = WireChange(dataset: record.dataset, id: record.id, fields: try WireJSON.fields(record.fields))
      return (try? sealer.open(change)) != nil
    }
    return (opened.count, records.count)
  }

  @Test func theOldKeyOpensNothingAfterARotation() async throws {
    try await LiveServer.withStorage { url, storage in
      let a = try Device(email: "ann@example.org", url: url)
      _ = try a.donation(place: "Blutspendedienst Süd")
      try await a.register()
      try await a.sync()
      _ = try await a.client.turnOnEncryption(passphrase: Self.phrase, token: a.token, logN: Self.logN)
      try await a.sync()
      let b = try await joined("ann@example.org", url)
      let lost = try await joined("ann@example.org", url)
      let oldKey = try #require(lost.client.syncKey)
      #expect(try opened(by: oldKey.key, in: storage).opened == 1, "before: the old key opens what is stored")

      try await a.sync()
      let newKey = try await a.client.rotateKey(passphrase: Self.newPhrase, token: a.token, logN: Self.logN)
      #expect(newKey.key.keyID != oldKey.key.keyID)
      try await a.sync()
      _ = try a.donation(place: "written after the rotation")
      try await a.sync()

      // Nothing on the server opens with the old key, everything with the new; the old wrapped key is gone.
      #expect(try opened(by: oldKey.key, in: storage) == (0, 2))
      #expect(try opened(by: newKey.key, in: storage) == (2, 2))
      #expect(try storage.allBytes().range(of: Data(oldKey.wrapped.sealed.utf8)) == nil)

      // The lost device, still on the old key, is refused: neither its pull nor its push goes through.
      _ = try lost.donation(place: "pushed by the lost device")
      await #expect(throws: SyncError.keyRotated) { try await lost.sync() }
      #expect(try storage.records().count == 2)
      // Neither the old passphrase nor its key opens the account now.
      await #expect(throws: (any Error).self) {
        _ = try await lost.client.unlock(passphrase: Self.phrase, token: lost.token)
      }

      // b is asked for the passphrase on its next sync, and ends with what a has.
      var asked = 0
      _ = try await b.client.syncRecovering(token: b.token, cursor: b.cursor, saveCursor: { b.cursor = $0 }) {
        asked += 1
        return Self.newPhrase
      }
      #expect(asked == 1)
      try await a.sync()
      #expect(try b.snapshot() == a.snapshot())
      #expect(try b.snapshot().contains { $0.contains("written after the rotation") })

      // A third device joins with the new passphrase.
      let c = try Device(email: "ann@example.org", url: url)
      try await c.login()
      _ = try await c.client.unlock(passphrase: Self.newPhrase, token: c.token)
      try await c.sync()
      #expect(try c.snapshot() == a.snapshot())

      // A rotation from a device whose key is not the account's is refused, and changes nothing.
      await #expect(throws: EncryptionError.otherKey) {
        _ = try await lost.client.rotateKey(passphrase: "another phrase entirely", token: lost.token, logN: Self.logN)
      }
      #expect(try opened(by: newKey.key, in: storage) == (2, 2))
    }
  }
}
