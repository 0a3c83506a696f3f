import Cryptography
import Foundation
import TestServer
import Testing

@testable import SyncHTTP

/// `vital serve backup` and `vital serve restore` against real servers on either backend: a
/// backup taken while a device syncs restores into an empty store, the devices converge on it,
/// and it restores from SQLite into PostgreSQL and back.
@Suite struct BackupTests {
  let folder: String
  static let secret = "Zebraklinik Quellental"

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-backup-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  func vital(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try TestServer.runVital(["serve"] + arguments)
  }

  /// Store arguments for a new, empty store: of the backend the tests run on, or of the other one.
  func emptyStore(_ name: String, otherBackend: Bool = false) throws -> (arguments: [String], database: String?)? {
    let postgres = (TestServer.postgresURL != nil) != otherBackend
    guard postgres else { return (["--data", folder + "/" + name], nil) }
    guard let base = ProcessInfo.processInfo.environment["VITAL_TEST_POSTGRES"] else { return nil }
    let database = try TestServer.createDatabase()
    return (["--postgres", (base.hasSuffix("/") ? base : base + "/") + database], database)
  }

  func accounts(_ store: [String]) throws -> String {
    let run = try vital(["admin", "accounts", "--json"] + store)
    #expect(run.status == 0, "\(run.stderr)")
    return run.stdout
  }

  /// A backup's rows, sorted: what two backups of the same data share whatever the backend.
  func rows(_ path: String) throws -> [Substring] {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    return lines.dropFirst().dropLast().sorted()
  }

  @Test func aBackupTakenWhileSyncingRestoresAndTheDevicesConverge() async throws {
    let server = try TestServer(dataDirectory: folder + "/data")
    let a = try Device(email: "ann@example.org", url: server.url)
    _ = try a.donation(place: "Blutspendezentrum Nord")
    let avatar = Data(("AVATAR-" + String(repeating: "pixels ", count: 100)).utf8)
    try a.replica.write(
      .blob, id: Crypto.sha256Hex(avatar), ["mime": .text("image/png"), "width": .integer(4), "height": .integer(4)],
      untracked: ["data": .blob(avatar)])
    try a.replica.write(.profile, id: "profile-1", ["avatar_sha256": .text(Crypto.sha256Hex(avatar))])
    try await a.register()
    try await a.sync()
    let b = try Device(email: "ann@example.org", url: server.url)
    try await b.login()
    try await b.sync()
    // Bob's account is end-to-end encrypted: the backup may hold only ciphertext and his wrapped key.
    let bob = try Device(email: "bob@example.org", url: server.url)
    _ = try bob.donation(place: Self.secret)
    try await bob.register()
    try await bob.sync()
    _ = try await bob.client.turnOnEncryption(passphrase: "correct sync passphrase 1", token: bob.token, logN: 14)
    try await bob.sync()

    // The backup runs while a pushes, one small sync after another.
    let file = folder + "/backup.jsonl"
    let pushing = Task {
      for n in 0..<15 {
        _ = try a.donation(place: "during the backup \(n)")
        try await a.sync()
      }
    }
    let backup = try vital(["backup", "--out", file, "--json"] + server.storeArguments)
    try await pushing.value
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains("Blutspendezentrum Nord"), "a clear account's records are there: the search can fail")
    #expect(!text.contains(Self.secret), "an encrypted account's values only as ciphertext")
    let bobKey = try #require(try await bob.client.fetchKey(token: bob.token))
    #expect(text.contains(bobKey.keyID), "with its wrapped key")
    #expect(!text.contains("a long server passphrase") && !text.contains(a.token), "hashes only")

    // After the backup: something the backup lacks, which the server must get back from a.
    _ = try a.donation(place: "after the backup")
    try await a.sync()
    let port = server.port
    server.stop()

    let target = try #require(try emptyStore("restored"))
    let restore = try vital(["restore", file, "--json"] + target.arguments)
    #expect(restore.status == 0, "\(restore.stderr)")
    let restored = try TestServer(dataDirectory: folder + "/restored", port: port, database: target.database)
    // The devices' tokens were restored: no new login. Their cursors are refused once; a sends
    // everything again, and both end with the same records, the one after the backup included.
    try await a.sync()
    try await b.sync()
    try await a.sync()
    #expect(try a.snapshot() == b.snapshot())
    #expect(try b.snapshot().contains { $0.contains("after the backup") })
    #expect(try b.snapshot().filter { $0.hasPrefix("donation:") }.count == 17)
    // Bob's encrypted account opens with his passphrase on a new device, byte for byte.
    try await bob.sync()
    let laptop = try Device(email: "bob@example.org", url: restored.url)
    try await laptop.login()
    _ = try await laptop.client.unlock(passphrase: "correct sync passphrase 1", token: laptop.token)
    try await laptop.sync()
    #expect(try laptop.snapshot() == bob.snapshot())
    restored.stop()

    // Into the other backend and back: the same rows each way.
    guard let other = try emptyStore("other", otherBackend: true) else { return }
    #expect(try vital(["restore", file] + other.arguments).status == 0)
    let second = folder + "/second.jsonl"
    #expect(try vital(["backup", "--out", second] + other.arguments).status == 0)
    #expect(try rows(second) == rows(file))
    let back = try #require(try emptyStore("back"))
    #expect(try vital(["restore", second] + back.arguments).status == 0)
    let third = folder + "/third.jsonl"
    #expect(try vital(["backup", "--out", third] + back.arguments).status == 0)
    #expect(try rows(third) == rows(file))
  }

  @Test func aDamagedBackupOrAFullStoreIsRefusedWithNothingRestored() async throws {
    let server = try TestServer(dataDirectory: folder + "/data")
    let a = try Device(email: "ann@example.org", url: server.url)
    for n in 0..<5 { _ = try a.donation(place: "place \(n)") }
    try await a.register()
    try await a.sync()
    let file = folder + "/backup.jsonl"
    #expect(try vital(["backup", "--out", file] + server.storeArguments).status == 0)

    func refused(_ path: String, _ words: String, into store: [String]? = nil) throws {
      let target = try store ?? #require(try emptyStore("target-\(UUID().uuidString.prefix(8))")).arguments
      let run = try vital(["restore", path] + target)
      #expect(run.status == 1, "\(words): \(run.stderr)")
      #expect(run.stderr.hasPrefix("error: ") && run.stderr.contains(words), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1)
      if store == nil { #expect(try accounts(target) == "[]\n", "nothing restored") }
    }
    try refused(file, "already holds accounts", into: server.storeArguments)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let cut = folder + "/cut.jsonl"
    try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: cut))
    try refused(cut, "cut short")
    let changed = folder + "/changed.jsonl"
    try Data(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "place 3", with: "place 9").utf8)
      .write(to: URL(fileURLWithPath: changed))
    try refused(changed, "does not add up")
    let other = folder + "/other.jsonl"
    try Data("{\"hello\": 1}\n".utf8).write(to: URL(fileURLWithPath: other))
    try refused(other, "not a vital serve backup")
    try refused(folder + "/missing.jsonl", "cannot read")
    try refused("/dev/zero", "not a regular file")
    let fifo = folder + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    try refused(fifo, "not a regular file")

    // A record line the server would never have accepted from a device is refused on its way in.
    func withFirstDonation(_ name: String, _ change: (String) -> String) throws -> String {
      var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let index = try #require(lines.firstIndex { $0.contains("\"t\":\"records\"") && $0.contains("donation") })
      var object = try #require(try JSONSerialization.jsonObject(with: Data(lines[index].utf8)) as? [String: Any])
      var values = try #require(object["v"] as? [Any])
      values[3] = change(try #require(values[3] as? String))
      object["v"] = values
      lines[index] = Substring(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
      let path = folder + "/" + name
      try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
      return path
    }
    try refused(withFirstDonation("not-json.jsonl") { _ in "{not json" }, "not a map of values with clocks")
    try refused(
      withFirstDonation("bad-clock.jsonl") {
        // Stored as the push brought it: the fields' shared clock, or each field's.
        $0.replacingOccurrences(of: "\"*\":\"2", with: "\"*\":\"x2")
          .replacingOccurrences(of: "\"hlc\":\"2", with: "\"hlc\":\"x2")
      },
      "is not a clock reading")
    try refused(
      withFirstDonation("huge-hb.jsonl") {
        $0.replacingOccurrences(
          of: "\"kind\":{",
          with: "\"hb_g_dl\":{\"hlc\":\"2026-01-01T00:00:00.000Z-0000-0000000000000001\",\"value\":1e308},\"kind\":{")
      }, "hb_g_dl")

    // A backup that cannot be written leaves nothing behind.
    let run = try vital(["backup", "--out", folder + "/no/such/dir/backup.jsonl"] + server.storeArguments)
    #expect(run.status == 1 && run.stderr.hasPrefix("error: cannot write the backup"), "\(run.stderr)")
  }
}
