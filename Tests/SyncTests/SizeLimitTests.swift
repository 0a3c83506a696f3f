import Auth
import Foundation
import Hummingbird
import HummingbirdTesting
import Replication
import Storage
import TestServer
import Testing

@testable import Sync
@testable import SyncHTTP
@testable import SyncServer

/// Sync is bounded by bytes: a value over the limit is refused where it is written, a record
/// the server will not take is set aside while the rest still travels, pushes are cut to the
/// server's body limit, and a server that repeats its cursor stops the sync.
@Suite struct SizeLimitTests {
  let folder: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-sizes-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  /// A real server on a loopback port, built in-process so that its limits can be set small.
  /// HummingbirdTesting's live server listens on `localhost`, which Debian resolves to ::1 as
  /// well as 127.0.0.1: the devices ask for `localhost` too.
  func withServer(
    _ configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (URL) async throws -> Void
  ) async throws {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.hasher = PasswordHasher(logN: 4, r: 8, p: 1)
    configure(&configuration)
    let repository = try SQLiteSyncRepository(path: folder + "/server-\(UUID().uuidString).sqlite")
    let app = buildApplication(configuration: configuration, repository: repository)
    try await app.test(.live) { client in
      try await body(URL(string: "http://localhost:\(try #require(client.port))")!)
    }
  }

  static func notes(_ bytes: Int, _ letter: Character = "x") -> String { String(repeating: letter, count: bytes) }

  func donation(_ device: Device, id: String, notes: String?) throws {
    try device.replica.write(
      .donation, id: id,
      [
        "kind": .text("plasma"), "status": .text("completed"), "scheduled_at": .null,
        "completed_at": .text("2026-01-01T10:00:00.000Z"), "place": .text("DRK"),
        "notes": notes.map(DatabaseValue.text) ?? .null,
      ])
  }

  /// What an older Vital could leave in the outbox: a record with a 12 MiB note.
  func oversizedRecord(_ device: Device, id: String) throws {
    try device.db.execute(
      """
      INSERT INTO donation (id, account_id, kind, status, completed_at, place, notes, updated_at)
      VALUES (?, ?, 'plasma', 'completed', '2026-02-01T10:00:00.000Z', 'DRK', ?, '2026-02-01T10:00:00.000Z')
      """, id, device.accountID, Self.notes(12 << 20))
    try device.db.execute(
      "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES (?, 'donation', ?, ?)", device.accountID, id,
      "*=2026-02-01T10:00:00.000Z-0000-00000000000000aa")
    try device.db.execute(
      "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, 'donation', ?, '*', NULL, ?)",
      device.accountID, id, "2026-02-01T10:00:00.000Z-0000-00000000000000aa")
  }

  @Test func aValueOverTheLimitIsRefusedWhereItIsWrittenAndNothingIsWritten() throws {
    let device = try Device(email: "big@example.org", url: URL(string: "http://127.0.0.1:9")!)
    #expect(throws: ReplicaError.self) {
      try donation(device, id: "big", notes: Self.notes(Replica.maxValueBytes + 1))
    }
    #expect(try device.db.scalar(Int.self, "SELECT count(*) FROM donation") == 0)
    #expect(try device.replica.pendingCount() == 0)
    try donation(device, id: "fits", notes: Self.notes(Replica.maxValueBytes))
    let message = ReplicaError.valueTooLarge(dataset: "donation", field: "notes", bytes: 12 << 20).description
    #expect(message.contains("12 MiB") && message.contains("1 MiB") && message.contains("nothing was written"))
  }

  @Test func anOversizedRecordIsSetAsideAndWhatFollowsStillArrives() async throws {
    try await withServer { url in
      let a = try Device(email: "wedge@example.org", url: url)
      let b = try Device(email: "wedge@example.org", url: url)
      try await a.register()
      try await b.login()
      try oversizedRecord(a, id: "huge")
      try donation(a, id: "after", notes: "fine")
      let summary = try await a.sync()
      #expect(summary.setAside.map(\.id) == ["huge"])
      #expect(summary.setAside.first?.reason.contains("12 MiB") == true)
      #expect(try a.replica.setAsideRecords().map(\.id) == ["huge"])
      #expect(try a.replica.pendingCount() == 0)
      try await b.sync()
      #expect(try b.db.query("SELECT id FROM donation ORDER BY id") { try $0.get(0, as: String.self) } == ["after"])
      // A second sync does not send it again while it is still too large, not even a field
      // edited meanwhile (B would get a donation with only a place); it stays listed.
      try a.replica.write(.donation, id: "huge", ["place": .text("DRK Ulm")])
      #expect(try await a.sync().setAside.isEmpty)
      #expect(try a.replica.setAsideRecords().map(\.id) == ["huge"])
      try await b.sync()
      #expect(try b.db.query("SELECT id FROM donation ORDER BY id") { try $0.get(0, as: String.self) } == ["after"])
      // Shortened, it goes whole with the next sync and is no longer set aside.
      try a.replica.write(.donation, id: "huge", ["notes": .text("summarised")])
      #expect(try await a.sync().setAside.isEmpty)
      #expect(try a.replica.setAsideRecords().isEmpty)
      try await b.sync()
      #expect(
        try b.db.query("SELECT id, kind, notes FROM donation ORDER BY id") {
          "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: String.self)) \(try $0.get(2, as: String.self))"
        } == ["after plasma fine", "huge plasma summarised"])
      #expect(try b.db.scalar(String.self, "SELECT place FROM donation WHERE id = 'huge'") == "DRK Ulm")
    }
  }

  /// The server takes values up to its own limit: it names the record it refuses (413), and the
  /// device sets that one aside and sends the rest.
  @Test func theServerNamesTheRecordItRefusesAndTheRestArrive() async throws {
    try await withServer({ $0.valueLimit = 64 << 10 }) { url in
      let a = try Device(email: "named@example.org", url: url)
      let b = try Device(email: "named@example.org", url: url)
      try await a.register()
      try await b.login()
      try donation(a, id: "one", notes: "short")
      try donation(a, id: "long", notes: Self.notes(100 << 10))
      try donation(a, id: "two", notes: "short")
      let summary = try await a.sync()
      #expect(summary.setAside.map(\.id) == ["long"])
      #expect(summary.setAside.first?.reason.contains("64 KiB") == true, "\(summary.setAside)")
      try await b.sync()
      #expect(
        try b.db.query("SELECT id FROM donation ORDER BY id") { try $0.get(0, as: String.self) } == ["one", "two"])
    }
  }

  /// 400 notes of 40 KiB are 16 MiB: more than a request may hold here (1 MiB), so the push is
  /// cut into requests under the limit, and every note arrives.
  @Test func aPushLargerThanTheBodyLimitGoesInSeveralRequests() async throws {
    try await withServer({ $0.bodyLimit = 1 << 20 }) { url in
      let a = try Device(email: "many@example.org", url: url)
      let b = try Device(email: "many@example.org", url: url)
      try await a.register()
      try await b.login()
      for n in 0..<400 { try donation(a, id: String(format: "d%03d", n), notes: Self.notes(40 << 10, "n")) }
      let summary = try await a.sync()
      #expect(summary.setAside.isEmpty)
      #expect(summary.pushed == 400)
      #expect(try a.replica.pendingCount() == 0)
      let pulled = try await b.sync()
      #expect(pulled.pulled == 400)
      #expect(try b.db.scalar(Int.self, "SELECT sum(length(notes)) FROM donation") == 400 * (40 << 10))
    }
  }

  /// The answers to a push in many requests also carry what other devices sent: each answer's
  /// records are applied, though the device writes an answer only while its next request is out.
  @Test func aPushInManyRequestsAppliesWhatEachAnswerBrings() async throws {
    try await withServer({ $0.bodyLimit = 1 << 20 }) { url in
      let a = try Device(email: "both@example.org", url: url)
      let b = try Device(email: "both@example.org", url: url)
      try await a.register()
      try await b.login()
      // Large enough that b's records come in several pages, so in several answers to a's pushes.
      for n in 0..<12 { try donation(b, id: String(format: "b%03d", n), notes: Self.notes(900 << 10, "b")) }
      _ = try await b.sync()
      #expect(try b.replica.pendingCount() == 0)
      for n in 0..<200 { try donation(a, id: String(format: "a%03d", n), notes: Self.notes(40 << 10, "n")) }
      let summary = try await a.sync()
      #expect(summary.pushed == 200)
      // b's records, and a's own from earlier requests of this sync (merged as no-ops).
      #expect(summary.pulled >= 12)
      #expect(try a.db.scalar(Int.self, "SELECT count(*) FROM donation WHERE id LIKE 'b%'") == 12)
      #expect(try a.replica.pendingCount() == 0)
      // Nothing is left to pull: the saved cursor is past everything.
      #expect(try await a.sync().pulled == 0)
      #expect(try await b.sync().pulled == 200)
    }
  }

  /// A server that answers "more" with the cursor it was given is not asked forever.
  @Test func aServerRepeatingItsCursorStopsTheSync() async throws {
    let router = Router()
    router.post("/v1/sync") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: .init(
          byteBuffer: ByteBuffer(
            string: #"{"accepted":0,"changes":[],"cursor":"e:5","encrypted":false,"has_more":true}"#)))
    }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
      let device = try Device(email: "loop@example.org", url: URL(string: "http://localhost:\(client.port!)")!)
      device.token = "any"
      device.cursor = "e:5"
      await #expect(throws: SyncError.self) { try await device.sync() }
      do {
        try await device.sync()
      } catch {
        #expect("\(error)".contains("did not move past cursor e:5"), "\(error)")
      }
    }
  }

  /// 60 records with 900 KiB notes each: a pull page stops after about 4 MiB, so no answer is
  /// much larger and the server (a real `vital serve`, SQLite or PostgreSQL) stays small.
  @Test func pullPagesAreBoundedByBytes() async throws {
    let server = try TestServer(dataDirectory: folder + "/data")
    let a = try Device(email: "fat@example.org", url: server.url)
    let b = try Device(email: "fat@example.org", url: server.url)
    try await a.register()
    try await b.login()
    for n in 0..<60 { try donation(a, id: String(format: "fat%02d", n), notes: Self.notes(900 << 10, "f")) }
    #expect(try await a.sync().pushed == 60)
    var pages = 0
    let summary = try await b.client.sync(token: b.token, cursor: nil, saveCursor: { _ in }) { _ in pages += 1 }
    #expect(summary.pulled == 60)
    #expect(pages >= 10, "pages of about 4 MiB: \(pages)")
    let peak = try #require(server.peakResidentBytes)
    // Generous: one page at a time is a few tens of MiB; everything at once was over 500 MiB.
    #expect(peak < 300 << 20, "server peak RSS \(peak >> 20) MiB")
    print("pullPagesAreBoundedByBytes: \(pages) pages, server peak RSS \(peak >> 20) MiB")
  }

  /// `--quota-mb` and `--quota-records` bound what one account keeps: a push past either is
  /// refused whole (507, with a message), the account keeps what it had, and the device keeps
  /// its changes to send once there is room.
  @Test func anAccountOverItsQuotaIsRefusedWith507AndKeepsWhatItHad() async throws {
    let server = try TestServer(
      dataDirectory: folder + "/quota", arguments: ["--quota-mb", "1", "--quota-records", "40"])
    let a = try Device(email: "quota@example.org", url: server.url)
    let b = try Device(email: "quota@example.org", url: server.url)
    try await a.register()
    try await b.login()
    for n in 0..<20 { try donation(a, id: String(format: "q%02d", n), notes: Self.notes(40 << 10)) }
    #expect(try await a.sync().pushed == 20)
    for n in 20..<30 { try donation(a, id: String(format: "q%02d", n), notes: Self.notes(40 << 10)) }
    do {
      try await a.sync()
      Issue.record("a push past the quota was taken")
    } catch let error as SyncError {
      guard case .http(507, let message) = error else { throw error }
      #expect(message.contains("space on the server is full") && message.contains("1 MiB"), "\(message)")
    }
    #expect(try a.replica.pendingCount() > 0, "the device keeps what it could not send")
    #expect(try await b.sync().pulled == 20)
    // The ten that did not fit are dropped here; shortened notes are taken (shrinking always is).
    try a.replica.acknowledge(upTo: Int64.max)
    for n in 0..<20 { try a.replica.write(.donation, id: String(format: "q%02d", n), ["notes": .text("short")]) }
    #expect(try await a.sync().pushed == 20)
    // Records: 20 kept, 30 more would be 50 of 40.
    for n in 0..<30 { try donation(a, id: String(format: "r%02d", n), notes: nil) }
    do {
      try await a.sync()
      Issue.record("a push past the record quota was taken")
    } catch SyncError.http(507, let message) {
      #expect(message.contains("50 of 40 records"), "\(message)")
    }
  }
}
