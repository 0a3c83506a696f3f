import Auth
import Cryptography
import Foundation
import Replication
import Schema
import Storage
import TestServer
import Testing

@testable import Sync
@testable import SyncHTTP
@testable import SyncServer

@Suite struct ServerTests {
  let folder: String
  let server: TestServer

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-server-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
    server = try TestServer(dataDirectory: folder + "/data")
  }

  var http: RawHTTP { RawHTTP(url: server.url) }

  static let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"

  func change(
    dataset: String = "donation", id: String = "d1", field: String = "place", value: String = "\"X\"", hlc: String = hlc
  ) -> String {
    "{\"since\":null,\"changes\":[{\"dataset\":\"\(dataset)\",\"id\":\"\(id)\",\"fields\":{\"\(field)\":{\"value\":\(value),\"hlc\":\"\(hlc)\"}}}]}"
  }

  @Test func healthz() async throws {
    let (status, body) = try await http.send("GET", "/healthz")
    #expect(status == 200 && body.contains("ok"))
  }

  /// A newer Vital may sync a dataset or a field this one does not have: the server keeps and
  /// relays it, and an older device applies what it knows and steps over the rest.
  @Test func datasetsAndFieldsADeviceDoesNotKnowAreRelayedAndSkipped() async throws {
    let newer = try Device(email: "newer@example.org", url: server.url)
    try await newer.register()
    let now = HLC.next(after: nil, now: Date(), node: "0123456789abcdef").description
    let body = """
      {"since":null,"changes":[
        {"dataset":"sleep_log","id":"s1","fields":{"minutes":{"value":420,"hlc":"\(now)"}}},
        {"dataset":"donation","id":"d1","fields":{
          "kind":{"value":"whole-blood","hlc":"\(now)"},"status":{"value":"completed","hlc":"\(now)"},
          "completed_at":{"value":"2026-01-01T10:00:00.000Z","hlc":"\(now)"},
          "place":{"value":"Ulm","hlc":"\(now)"},"rating":{"value":5,"hlc":"\(now)"}}}]}
      """
    let (status, text) = try await http.sync(body, token: newer.token)
    #expect(status == 200, "\(text)")
    #expect(text.contains("\"accepted\":2"), "\(text)")

    let older = try Device(email: "newer@example.org", url: server.url)
    try await older.login()
    let first = try await older.sync()
    #expect(first.pulled == 2)
    let snapshot = try older.snapshot()
    #expect(
      snapshot == [
        "donation: text(\"d1\")|text(\"whole-blood\")|text(\"completed\")|null|text(\"2026-01-01T10:00:00.000Z\")|text(\"Ulm\")|null|null|null|null|null|null"
      ], "\(snapshot)")
    let again = try await older.sync()
    #expect(again.pulled == 0, "the cursor moved past what this device does not keep")
  }

  @Test func badRequestsGetAClearFourHundredAndStoreNothing() async throws {
    let device = try Device(email: "bad@example.org", url: server.url)
    try await device.register()
    let token = device.token
    let cases: [(String, String, Int, String)] = [
      ("invalid JSON", "{not json", 400, "not the JSON"),
      ("wrong types", "{\"since\": 5, \"changes\": \"many\"}", 400, "not the JSON"),
      ("malformed dataset name", change(dataset: "Pass words"), 400, "is not a dataset name"),
      ("owner column as a field", change(field: "account_id"), 400, "has no field"),
      ("malformed field name", change(field: "place; DROP"), 400, "has no field"),
      ("malformed clock", change(hlc: "yesterday"), 400, "not a clock reading"),
      ("clock from the future", change(hlc: "2099-01-01T00:00:00.000Z-0000-0123456789abcdef"), 400, "ahead"),
      ("object value", change(value: "{\"a\": 1}"), 400, "not the JSON"),
      ("empty id", change(id: ""), 400, "record id"),
    ]
    for (name, body, expected, message) in cases {
      let (status, text) = try await http.sync(body, token: token)
      #expect(status == expected, "\(name): \(status) \(text)")
      #expect(text.contains(message), "\(name): \(text)")
      #expect(text.contains("\"error\""), "\(name): errors are JSON")
    }
    let huge = String(repeating: "x", count: 11 << 20)
    let (tooBig, _) = try await http.sync(change(value: "\"\(huge)\""), token: token)
    #expect(tooBig == 413)
    let (noToken, noTokenText) = try await http.sync(change(), token: "")
    #expect(noToken == 401 && noTokenText.contains("log in"))
    let (badToken, _) = try await http.sync(change(), token: String(repeating: "ab", count: 32))
    #expect(badToken == 401)
    let bytes = Data("not what the name says".utf8)
    let (mismatch, mismatchText) = try await http.send(
      "PUT", "/v1/blobs/" + String(repeating: "0", count: 64), body: bytes, token: token)
    #expect(mismatch == 400 && mismatchText.contains("do not match"))
    let (badName, _) = try await http.send("PUT", "/v1/blobs/../../etc", body: bytes, token: token)
    #expect((400..<500).contains(badName))
    // Nothing of it was kept.
    let (status, text) = try await http.sync("{\"since\":null,\"changes\":[]}", token: token)
    #expect(status == 200 && text.contains("\"changes\":[]"), "\(text)")
  }

  @Test func oneUsersTokenNeverReachesAnotherUsersData() async throws {
    let ann = try Device(email: "ann@example.org", url: server.url)
    let eve = try Device(email: "eve@example.org", url: server.url)
    try await ann.register()
    try await eve.register()
    let id = try ann.donation(place: "Ann's centre")
    let avatar = Data("pretend png".utf8)
    let sha = Crypto.sha256Hex(avatar)
    #expect(try await http.send("PUT", "/v1/blobs/\(sha)", body: avatar, token: ann.token).0 == 201)
    try await ann.sync()

    let (_, pulled) = try await http.sync("{\"since\":null,\"changes\":[]}", token: eve.token)
    #expect(pulled.contains("\"changes\":[]"), "eve sees nothing of ann's: \(pulled)")
    #expect(try await http.send("GET", "/v1/blobs/\(sha)", token: eve.token).0 == 404)
    // Eve writes a record with the same id: it is hers alone.
    let (status, _) = try await http.sync(change(id: id, value: "\"Eve's idea\""), token: eve.token)
    #expect(status == 200)
    let (_, again) = try await http.sync("{\"since\":null,\"changes\":[]}", token: ann.token)
    #expect(again.contains("Ann's centre") && !again.contains("Eve's idea"))
  }

  @Test func aLostAnswerIsRepairedByTheNextSyncWithoutDuplicates() async throws {
    let a = try Device(email: "lost@example.org", url: server.url)
    let b = try Device(email: "lost@example.org", url: server.url)
    try await a.register()
    try await b.login()
    _ = try a.donation(place: "Centre")
    // The push reaches the server, which commits it, but its answer never reaches the client.
    let request = SyncRequest(
      since: nil, changes: SyncClient.group(try a.replica.pending(limit: 100, in: VitalSchema.datasets)))
    _ = try await a.client.send("POST", "/v1/sync", body: try JSONEncoder().encode(request), token: a.token)
    #expect(try a.replica.pendingCount() > 0)
    let retry = try await a.sync()
    #expect(retry.pushed == 1)
    #expect(try a.replica.pendingCount() == 0)
    try await b.sync()
    #expect(try b.snapshot() == a.snapshot())
    #expect(try b.db.scalar(Int.self, "SELECT count(*) FROM donation") == 1)
  }

  @Test func aDeleteWinsOverAConcurrentEditEverywhere() async throws {
    let a = try Device(email: "del@example.org", url: server.url)
    let b = try Device(email: "del@example.org", url: server.url)
    try await a.register()
    try await b.login()
    let id = try a.donation(place: "Centre")
    try await a.sync()
    try await b.sync()
    try a.replica.delete(.donation, id: id)
    usleep(5000)
    try b.replica.write(.donation, id: id, ["place": .text("edited after the delete")])
    try await b.sync()
    try await a.sync()
    try await b.sync()
    #expect(try a.db.scalar(Int.self, "SELECT count(*) FROM donation") == 0)
    #expect(try b.db.scalar(Int.self, "SELECT count(*) FROM donation") == 0)
  }

  @Test func anExpiredTokenIsRefused() async throws {
    let repository = try SQLiteSyncRepository(path: folder + "/direct.sqlite")
    let now = Date()
    let user = try await repository.createUser(email: "t@example.org", passwordHash: "x", now: now)
    try await repository.createToken(userID: user, tokenSHA256: "abc", deviceName: "test", now: now)
    #expect(try await repository.user(tokenSHA256: "abc", now: now.addingTimeInterval(29 * 86_400))?.id == user)
    #expect(try await repository.user(tokenSHA256: "abc", now: now.addingTimeInterval(60 * 86_400)) == nil)
  }

  @Test func aCursorFromAnotherServerAsksForAResync() async throws {
    let device = try Device(email: "c@example.org", url: server.url)
    try await device.register()
    let (status, text) = try await http.sync("{\"since\":\"ffffffffffffffff:3\",\"changes\":[]}", token: device.token)
    #expect(status == 409 && text.contains("resync required"))
    device.cursor = "ffffffffffffffff:3"
    _ = try device.donation(place: "after resync")
    try await device.sync()  // the client starts over by itself
    #expect(device.cursor?.hasPrefix("ffff") == false)
  }

  /// A server restored from an older backup: this server's epoch, a number it never handed out.
  @Test func aCursorBeyondWhatTheServerHandedOutAsksForAResync() async throws {
    let device = try Device(email: "beyond@example.org", url: server.url)
    try await device.register()
    try await device.sync()
    let epoch = try #require(device.cursor?.split(separator: ":").first)
    let (status, text) = try await http.sync("{\"since\":\"\(epoch):999999999\",\"changes\":[]}", token: device.token)
    #expect(status == 409 && text.contains("resync required"), "\(status) \(text)")
  }

  @Test func tenWrongPasswordsLockTheAccountForAQuarterHour() async throws {
    let credentials = #"{"email":"lock@example.org","password":"a long server passphrase"}"#
    #expect(try await http.send("POST", "/v1/accounts", body: Data(credentials.utf8)).0 == 201)
    let wrong = #"{"email":"lock@example.org","password":"not the passphrase at all"}"#
    for _ in 0..<LoginLockout.attempts {
      #expect(try await http.send("POST", "/v1/sessions", body: Data(wrong.utf8)).0 == 401)
    }
    let (status, body) = try await http.send("POST", "/v1/sessions", body: Data(credentials.utf8))
    #expect(status == 429)
    #expect(body.contains("locked for 15 more minutes"))
    #expect(!body.contains("passphrase"))
  }
}
