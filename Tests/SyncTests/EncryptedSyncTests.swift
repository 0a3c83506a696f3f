import Auth
import Cryptography
import Foundation
import Storage
import Testing

@testable import Sync
@testable import SyncHTTP

/// End-to-end encryption against a real server: it never holds a value in the clear, devices
/// with the passphrase converge, and anything changed on the server is refused.
@Suite struct EncryptedSyncTests {
  /// A low scrypt cost keeps the tests fast; the format records the cost, so nothing else changes.
  static let logN = 14
  static let phrase = "correct sync passphrase 1"

  static let secrets = ["Zebraklinik Quellental", "Xylandersson", "Gartenhaus Wunderlich"]
  static let avatar = Data(("AVATAR-MARKER-" + String(repeating: "pixels ", count: 300)).utf8)

  /// A device with a donation, a profile, a watched place and an avatar, each with a value
  /// found nowhere else.
  func filledDevice(_ email: String, _ url: URL) throws -> Device {
    let device = try Device(email: email, url: url)
    _ = try device.donation(id: "donation-1", place: Self.secrets[0])
    let sha = Crypto.sha256Hex(Self.avatar)
    try device.replica.write(
      .blob, id: sha, ["mime": .text("image/png"), "width": .integer(4), "height": .integer(4)],
      untracked: ["data": .blob(Self.avatar)])
    try device.replica.write(
      .profile, id: "profile-e2e", ["surname": .text(Self.secrets[1]), "avatar_sha256": .text(sha)])
    try device.replica.write(
      .areaWatch, id: "watch-1", ["label": .text(Self.secrets[2]), "lat": .real(48.1), "lon": .real(11.5)])
    return device
  }

  func turnOn(_ device: Device) async throws {
    _ = try await device.client.turnOnEncryption(passphrase: Self.phrase, token: device.token, logN: Self.logN)
  }

  @Test func theServerNeverHoldsOrSendsAValueInTheClear() async throws {
    try await LiveServer.withStorage { url, storage in
      let a = try filledDevice("clear@example.org", url)
      try await a.register()
      try await a.sync()
      // The search finds the values while they are in the clear: it can fail.
      #expect(try storage.allBytes().range(of: Data(Self.secrets[0].utf8)) != nil)

      try await a.sync()
      try await turnOn(a)
      try await a.sync()
      let stored = try storage.allBytes()
      for secret in Self.secrets + ["donation-1", "profile-e2e", "whole-blood"] {
        #expect(stored.range(of: Data(secret.utf8)) == nil, "\(secret) is on the server")
      }
      #expect(stored.range(of: Self.avatar.prefix(14)) == nil, "avatar bytes are on the server")
      let records = try storage.records()
      #expect(records.count == 4)
      #expect(records.allSatisfy { $0.dataset == "blob" || $0.id.hasPrefix("e2.") })

      // What the server answers: the whole history and every blob.
      let raw = RawHTTP(url: url)
      let (status, page) = try await raw.sync("{\"changes\":[]}", token: a.token)
      #expect(status == 200 && page.contains("\"encrypted\":true"))
      var bodies = page
      for record in records where record.dataset == "blob" {
        bodies += try await raw.send("GET", "/v1/blobs/\(record.id)", token: a.token).1
      }
      bodies += try await raw.send("GET", "/v1/keys/current", token: a.token).1
      for secret in Self.secrets { #expect(!bodies.contains(secret)) }
      #expect(!bodies.contains("AVATAR-MARKER"))

      // A second device with the passphrase gets everything back, the avatar byte for byte.
      let b = try Device(email: "clear@example.org", url: url)
      try await b.login()
      await #expect(throws: SyncError.encrypted) { try await b.sync() }
      _ = try await b.client.unlock(passphrase: Self.phrase, token: b.token)
      try await b.sync()
      try await a.sync()
      #expect(try b.snapshot() == a.snapshot())
      let avatar = try b.db.scalar(Data.self, "SELECT data FROM blob WHERE sha256 = ?", Crypto.sha256Hex(Self.avatar))
      #expect(avatar == Self.avatar)
    }
  }

  @Test func withoutTheKeyNothingIsSentOrApplied() async throws {
    try await LiveServer.withStorage { url, storage in
      let a = try filledDevice("nokey@example.org", url)
      try await a.register()
      try await turnOn(a)
      try await a.sync()
      let before = try storage.records().count

      // A device that never entered the passphrase: its cleartext push is refused whole.
      let c = try Device(email: "nokey@example.org", url: url)
      try await c.login()
      _ = try c.donation(place: "should never reach the server")
      let pending = try c.replica.pendingCount()
      await #expect(throws: SyncError.encrypted) { try await c.sync() }
      #expect(try storage.records().count == before)
      #expect(try c.replica.pendingCount() == pending)
      let (status, body) = try await RawHTTP(url: url).sync(
        """
        {"changes":[{"dataset":"donation","id":"plain","fields":{"place":{"value":"clear","hlc":"2026-01-01T00:00:00.000Z-0000-0000000000000001"}}}]}
        """, token: c.token)
      #expect(status == 409 && body.contains("end-to-end encrypted"))

      // The wrong passphrase: refused, no key kept, still nothing synced.
      await #expect(throws: EncryptionError.wrongPassphrase) {
        _ = try await c.client.unlock(passphrase: "not the passphrase", token: c.token)
      }
      #expect(try SyncKey.load(c.db, accountID: c.accountID) == nil)
      #expect(try c.db.scalar(Int.self, "SELECT count(*) FROM donation WHERE place = ?", Self.secrets[0]) == 0)

      // The right one: its own record goes up sealed, and it gets everyone else's.
      _ = try await c.client.unlock(passphrase: Self.phrase, token: c.token)
      try await c.sync()
      try await a.sync()
      #expect(try c.snapshot() == a.snapshot())
      #expect(try storage.records().count == before + 1)
      #expect(try storage.allBytes().range(of: Data("should never reach".utf8)) == nil)
    }
  }

  /// Each way of changing a stored record makes the next pull fail whole, with the local
  /// records and the cursor as they were; put back, the same pull succeeds.
  @Test func changedCiphertextIsRefusedAndNothingIsApplied() async throws {
    try await LiveServer.withStorage { url, storage in
      let a = try Device(email: "tamper@example.org", url: url)
      let b = try Device(email: "tamper@example.org", url: url)
      try await a.register()
      try await b.login()
      try await turnOn(a)
      _ = try await b.client.unlock(passphrase: Self.phrase, token: b.token)
      _ = try a.donation(id: "x", place: "first place")
      _ = try a.donation(id: "y", place: "second place")
      try await a.sync()
      try await b.sync()
      try a.replica.write(.donation, id: "x", ["place": .text("first place, moved")])
      try a.replica.write(.donation, id: "y", ["place": .text("second place, moved")])
      try await a.sync()

      let key = try SyncKey.load(a.db, accountID: a.accountID)
      let sealer = try Sealer(key: try #require(key).key)
      let xID = try sealer.sealID(dataset: "donation", id: "x")
      let yID = try sealer.sealID(dataset: "donation", id: "y")
      let records = try storage.records()
      let x = try #require(records.first { $0.id == xID }).fields
      let y = try #require(records.first { $0.id == yID }).fields
      func place(_ fields: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(fields.utf8)) as! [String: Any]
        return object["place"] as! [String: Any]
      }
      func with(_ fields: String, place: [String: Any]) throws -> String {
        var object = try JSONSerialization.jsonObject(with: Data(fields.utf8)) as! [String: Any]
        object["place"] = place
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
      }
      let value = try place(x)["value"] as! String
      var bytes = Array(Data(base64Encoded: String(value.dropFirst(3)))!)
      bytes[bytes.count / 2] ^= 0x04
      var flipped = try place(x)
      flipped["value"] = "e1:" + Data(bytes).base64EncodedString()
      var truncated = try place(x)
      truncated["value"] = String(value.prefix(value.count - 8))
      let cases: [(String, String)] = [
        ("a flipped bit", try with(x, place: flipped)),
        ("y's value in x", try with(x, place: try place(y))),
        ("a truncated value", try with(x, place: truncated)),
      ]
      let cursor = b.cursor
      for (what, fields) in cases {
        try storage.setFields(dataset: "donation", id: xID, fields)
        await #expect(throws: EncryptionError.tampered(dataset: "donation"), "\(what)") { try await b.sync() }
        #expect(b.cursor == cursor)
        #expect(try b.db.scalar(String.self, "SELECT place FROM donation WHERE id = 'x'") == "first place")
        #expect(try b.db.scalar(String.self, "SELECT place FROM donation WHERE id = 'y'") == "second place")
      }
      try storage.setFields(dataset: "donation", id: xID, x)
      try await b.sync()
      #expect(try b.snapshot() == a.snapshot())
    }
  }

  @Test func aNewPassphraseRewrapsTheKeyAndOtherDevicesKeepSyncing() async throws {
    try await LiveServer.withStorage { url, storage in
      let a = try Device(email: "rewrap@example.org", url: url)
      let b = try Device(email: "rewrap@example.org", url: url)
      try await a.register()
      try await b.login()
      _ = try a.donation(place: "before the change")
      try await turnOn(a)
      try await a.sync()
      _ = try await b.client.unlock(passphrase: Self.phrase, token: b.token)
      try await b.sync()
      let serverBefore = try storage.records().map(\.fields)

      try await a.client.changePassphrase("a brand new passphrase", token: a.token, logN: Self.logN)
      // Records are not touched: only the wrapped key changed.
      #expect(try storage.records().map(\.fields) == serverBefore)
      _ = try b.donation(place: "after the change, from b")
      try await b.sync()
      try await a.sync()
      #expect(try a.snapshot() == b.snapshot())

      // A new device needs the new passphrase; b may enter it too.
      let c = try Device(email: "rewrap@example.org", url: url)
      try await c.login()
      await #expect(throws: EncryptionError.wrongPassphrase) {
        _ = try await c.client.unlock(passphrase: Self.phrase, token: c.token)
      }
      _ = try await c.client.unlock(passphrase: "a brand new passphrase", token: c.token)
      try await c.sync()
      #expect(try c.snapshot() == a.snapshot())
      _ = try await b.client.unlock(passphrase: "a brand new passphrase", token: b.token)
      try await b.sync()
      #expect(try b.snapshot() == a.snapshot())
    }
  }

  @Test func aMalformedKeyIsRefusedAndEncryptionStaysOff() async throws {
    try await LiveServer.withStorage { url, storage in
      let a = try Device(email: "badkey@example.org", url: url)
      try await a.register()
      _ = try a.donation(place: "kept in the clear")
      try await a.sync()
      let raw = RawHTTP(url: url)
      for body in [
        "not json", "{}", "{\"key\":\"text\"}", "{\"key\":{\"key_id\":\"short\"}}",
        "{\"key\":{\"key_id\":\"ABCDEF0123456789\"}}",
        "{\"key\":{\"key_id\":\"0123456789abcdef\",\"pad\":\"\(String(repeating: "x", count: 5000))\"}}",
      ] {
        let (status, _) = try await raw.send("PUT", "/v1/keys/current", body: Data(body.utf8), token: a.token)
        #expect((400...413).contains(status), "\(body.prefix(40)): \(status)")
      }
      // Complete keys no device could use: each refused before encryption turns on (which would
      // delete the cleartext and leave an account nobody can open).
      let good = try WrappedKey.wrap(try DataKey.generate(), passphrase: "a good sync passphrase", logN: 14)
      var broken: [(String, WrappedKey)] = []
      for (what, change) in [
        ("ln 0", { (k: inout WrappedKey) in k.logN = 0 }), ("ln 10", { $0.logN = 10 }), ("ln 30", { $0.logN = 30 }),
        ("empty salt", { $0.salt = "" }), ("short salt", { $0.salt = Data([1, 2, 3]).base64EncodedString() }),
        ("r 0", { $0.r = 0 }), ("p 99", { $0.p = 99 }), ("no nonce", { $0.nonce = "" }),
        ("short sealed", { $0.sealed = "AAAA" }), ("kdf", { $0.kdf = "md5" }),
      ] as [(String, (inout WrappedKey) -> Void)] {
        var key = good
        change(&key)
        broken.append((what, key))
      }
      for (what, key) in broken {
        let (status, text) = try await raw.send(
          "PUT", "/v1/keys/current", body: Data("{\"key\":\(key.json)}".utf8), token: a.token)
        #expect(status == 400, "\(what): \(status) \(text)")
        #expect(text.contains("nothing was changed"), "\(what): \(text)")
      }
      #expect(try await raw.send("PUT", "/v1/keys/current", body: Data("{}".utf8)).0 == 401)
      #expect(try await raw.send("GET", "/v1/keys/current", token: a.token).0 == 404)
      #expect(try storage.records().count == 1)
      try await a.sync()
    }
  }

  @Test func asecondKeyForTheAccountIsRefused() async throws {
    try await LiveServer.withStorage { url, storage in
      let a = try Device(email: "twokeys@example.org", url: url)
      let b = try Device(email: "twokeys@example.org", url: url)
      try await a.register()
      try await b.login()
      try await turnOn(a)
      await #expect(throws: EncryptionError.alreadyOn) {
        _ = try await b.client.turnOnEncryption(passphrase: "another passphrase", token: b.token, logN: Self.logN)
      }
      #expect(try SyncKey.load(b.db, accountID: b.accountID) == nil)
    }
  }
}
