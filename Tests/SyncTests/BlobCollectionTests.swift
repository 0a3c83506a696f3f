import Cryptography
import Foundation
import Replication
import Schema
import TestServer
import Testing

@testable import SyncHTTP

/// The server collects the bytes of blobs no record points at any more, on either backend
/// (VITAL_TEST_BACKEND): bytes a device uploaded whose record never came, once an hour old, and
/// bytes whose record a device deleted. What a live record names always stays.
@Suite struct BlobCollectionTests {
  let folder: String
  let server: TestServer

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-blobs-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
    server = try TestServer(dataDirectory: folder + "/data")
  }

  func collect(_ arguments: [String] = []) throws -> (blobs: Int, bytes: Int) {
    let run = try TestServer.runVital(
      ["serve", "admin", "collect-blobs", "--json"] + arguments + server.storeArguments)
    try #require(run.status == 0, "\(run.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Int])
    return (object["blobs"] ?? -1, object["bytes"] ?? -1)
  }

  func storedBytes() throws -> Int {
    let run = try TestServer.runVital(["serve", "admin", "accounts", "--json"] + server.storeArguments)
    let accounts = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    return try #require(accounts.first?["stored_bytes"] as? Int)
  }

  static func avatar(_ marker: String) -> Data {
    Data(("AVATAR-\(marker)-" + String(repeating: "px ", count: 200)).utf8)
  }

  /// Gives the device avatar `data`: its blob and the profile pointing at it, as `vital profile
  /// avatar set` writes them.
  func setAvatar(_ device: Device, _ data: Data) throws {
    let sha = Crypto.sha256Hex(data)
    try device.replica.write(
      .blob, id: sha, ["mime": .text("image/png"), "width": .integer(4), "height": .integer(4)],
      untracked: ["data": .blob(data)])
    try device.replica.write(.profile, id: "profile-1", ["avatar_sha256": .text(sha)])
  }

  func fetch(_ device: Device, _ data: Data) async throws -> Int {
    try await RawHTTP(url: server.url).send("GET", "/v1/blobs/" + Crypto.sha256Hex(data), token: device.token).0
  }

  @Test func bytesNoLiveRecordPointsAtAreCollectedAndTheRestStay() async throws {
    let ann = try Device(email: "ann@example.org", url: server.url)
    try await ann.register()
    let (first, second) = (Self.avatar("first"), Self.avatar("second"))
    try setAvatar(ann, first)
    try await ann.sync()
    // Bytes uploaded with no record after them (a sync that never came).
    let stray = Self.avatar("stray")
    let put = try await RawHTTP(url: server.url).send(
      "PUT", "/v1/blobs/" + Crypto.sha256Hex(stray), body: stray, token: ann.token)
    #expect(put.0 == 201)
    // The avatar replaced: the old blob deleted for every device, as the profile store does.
    try setAvatar(ann, second)
    try ann.replica.deleteForGood(.blob, where: "sha256 = ?", Crypto.sha256Hex(first))
    try await ann.sync()
    let before = try storedBytes()

    // An hour's grace for bytes without a record; none for bytes whose record was deleted.
    let deleted = try collect()
    #expect(deleted.blobs == 1 && deleted.bytes == first.count)
    #expect(try await fetch(ann, first) == 404)
    #expect(try await fetch(ann, stray) == 200)
    #expect(try await fetch(ann, second) == 200)
    let stale = try collect(["--older-than", "0"])
    #expect(stale.blobs == 1 && stale.bytes == stray.count)
    #expect(try await fetch(ann, stray) == 404)
    #expect(try await fetch(ann, second) == 200, "the live avatar stays")
    #expect(try collect(["--older-than", "0"]).blobs == 0)
    #expect(try storedBytes() == before - first.count - stray.count, "the account's usage follows")

    // A new device gets the live avatar and the tombstone, and nothing stops its sync.
    let phone = try Device(email: "ann@example.org", url: server.url)
    try await phone.login()
    try await phone.sync()
    #expect(try phone.snapshot() == ann.snapshot())
    #expect(
      try phone.db.scalar(Data.self, "SELECT data FROM blob WHERE sha256 = ?", Crypto.sha256Hex(second)) == second)
    #expect(try phone.db.scalar(Int.self, "SELECT count(*) FROM blob") == 1)

    // The same picture set again: the record comes back, and its bytes with it.
    try setAvatar(ann, first)
    try await ann.sync()
    #expect(try await fetch(ann, first) == 200)
    #expect(try collect(["--older-than", "0"]).blobs == 0)
  }
}
