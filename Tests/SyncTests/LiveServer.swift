import Auth
import Foundation
import Hummingbird
import HummingbirdTesting
import Schema
import TestServer
import Testing

@testable import SyncServer

/// A sync server built in this process by the `buildApplication` that `vital serve` runs,
/// listening on a loopback port, over a fresh store of the backend VITAL_TEST_BACKEND names:
/// for the protocol tests, which test what the server answers, not the process (start-up,
/// signals, restarts stay with `TestServer`). It checks values by the rules `vital serve` does;
/// a cheap password hash keeps logins fast.
enum LiveServer {
  static func with(
    _ configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (URL) async throws -> Void
  ) async throws {
    try await withStorage(configure) { url, _ in try await body(url) }
  }

  /// The same, with the store to read behind the server's back.
  static func withStorage(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (URL, ServerStorage) async throws -> Void
  ) async throws {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.hasher = PasswordHasher(logN: 4, r: 8, p: 1)
    // What `vital serve` checks values by (its KnownRules, which ServerRulesFileTests keeps equal).
    configuration.rules = Dictionary(
      uniqueKeysWithValues: VitalSchema.datasets.filter { !$0.rules.isEmpty }.map { ($0.name, $0.rules) })
    configure(&configuration)
    guard let base = TestServer.postgresURL else {
      var template = Array((NSTemporaryDirectory() + "/vital-live-XXXXXX").utf8CString)
      let folder = String(cString: mkdtemp(&template)!)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let storage = ServerStorage(sqlitePath: folder + "/server.sqlite", database: nil)
      let repository = try SQLiteSyncRepository(path: storage.sqlitePath)
      return try await serve(buildApplication(configuration: configuration, repository: repository)) {
        try await body($0, storage)
      }
    }
    let database = try TestServer.createDatabase()
    let storage = ServerStorage(sqlitePath: "", database: database)
    let url = (base.hasSuffix("/") ? base : base + "/") + database
    let client = try PostgresSyncRepository.makeClient(url: url)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      let repository = try await PostgresSyncRepository(client: client)
      try await serve(buildApplication(configuration: configuration, repository: repository)) {
        try await body($0, storage)
      }
    }
  }

  /// HummingbirdTesting's live server listens on `localhost`, which Debian resolves to ::1 as
  /// well as 127.0.0.1: devices ask for `localhost` too.
  private static func serve(_ app: some ApplicationProtocol, _ body: @Sendable (URL) async throws -> Void)
    async throws
  {
    try await app.test(.live) { client in
      try await body(URL(string: "http://localhost:\(try #require(client.port))")!)
    }
  }
}
