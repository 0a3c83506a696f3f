import Foundation
import Replication
import Schema
import Storage
import Testing

@testable import Sync
@testable import SyncHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A device in-process: its own database file, one local account, a client for the server.
final class Device: @unchecked Sendable {
  let folder: String
  let db: Database
  let accountID: String
  let email: String
  let url: URL
  var token = ""
  var cursor: String?

  init(email: String, url: URL) throws {
    var template = Array((NSTemporaryDirectory() + "/vital-device-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
    db = try VitalSchema.open(path: folder + "/vital.sqlite")
    accountID = UUID().uuidString.lowercased()
    self.email = email
    self.url = url
    try db.execute(
      "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, 'x', ?)", accountID, email, Date())
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  var replica: Replica { Replica(db: db, accountID: accountID, now: Date()) }
  /// A client as `vital sync` makes one: with the sync key this device holds, if any.
  var client: SyncClient {
    let client = SyncClient(db: db, accountID: accountID, now: Date(), url: url, datasets: VitalSchema.datasets)
    client.syncKey = try? SyncKey.load(db, accountID: accountID)
    return client
  }

  func register(password: String = "a long server passphrase") async throws {
    try await client.register(email: email, password: password)
    try await login(password: password)
  }

  func login(password: String = "a long server passphrase") async throws {
    token = try await client.login(email: email, password: password)
  }

  @discardableResult
  func sync() async throws -> SyncClient.Summary {
    let summary = try await client.sync(token: token, cursor: cursor) { _ in }
    cursor = summary.cursor
    return summary
  }

  func donation(id: String = UUID().uuidString.lowercased(), place: String) throws -> String {
    try replica.write(
      .donation, id: id,
      [
        "kind": .text("whole-blood"), "status": .text("completed"), "scheduled_at": .null,
        "completed_at": .text("2026-01-01T10:00:00.000Z"), "place": .text(place), "notes": .null,
      ])
    return id
  }

  /// The user's data as text: every synced table's rows without local columns.
  func snapshot() throws -> [String] {
    var lines: [String] = []
    for dataset in VitalSchema.datasets where dataset != .blob {
      let columns = (["\(dataset.key)"] + dataset.fields).map { "\"\($0)\"" }
      lines += try db.query(
        "SELECT \(columns.joined(separator: ", ")) FROM \(dataset.name) WHERE account_id = ? ORDER BY 1", accountID
      ) { row in dataset.name + ": " + (0..<row.count).map { "\(row[$0])" }.joined(separator: "|") }
    }
    return lines
  }
}

/// Raw HTTP against the server, for what the client would never send.
struct RawHTTP {
  let url: URL

  func send(_ method: String, _ path: String, body: Data? = nil, token: String? = nil) async throws -> (Int, String) {
    var request = URLRequest(url: url.appendingPathComponent(String(path.dropFirst())))
    request.httpMethod = method
    request.httpBody = body
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
  }

  func sync(_ json: String, token: String) async throws -> (Int, String) {
    try await send("POST", "/v1/sync", body: Data(json.utf8), token: token)
  }
}
