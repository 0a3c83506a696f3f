import Foundation
import Storage
import Testing

@testable import SyncServer

/// A server's SQLite store made before the tables took PostgreSQL's plural names: opened by
/// this version, it keeps its accounts, sessions, records, blobs and invitations under the new
/// names, and the references between them hold.
@Suite struct ServerMigrationTests {
  @Test func aStoreWithTheOldNamesKeepsEverythingUnderTheNewOnes() async throws {
    var template = Array((NSTemporaryDirectory() + "/vital-server-migration-XXXXXX").utf8CString)
    let folder = String(cString: mkdtemp(&template)!)
    let path = folder + "/server.sqlite"
    do {
      let db = try Database(path: path)
      let before = SQLiteSyncRepository.migrator.migrations.prefix { $0.name != "0010_plural_names" }
      try Migrator(Array(before)).migrate(db)
      try db.executeScript(
        """
        INSERT INTO user (id, email, password_hash, created_at, record_count, stored_bytes)
          VALUES ('u1', 'ann@example.org', 'hash', '2026-01-01T00:00:00.000Z', 1, 10);
        INSERT INTO token (token_sha256, user_id, created_at, last_used_at, device_name)
          VALUES ('t1', 'u1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'laptop');
        INSERT INTO record (user_id, dataset, row_id, fields, seq) VALUES ('u1', 'donation', 'd1', '{}', 1);
        INSERT INTO blob (user_id, sha256, data) VALUES ('u1', 'abc', x'00');
        INSERT INTO invite (code_sha256, created_at) VALUES ('c1', '2026-01-01T00:00:00.000Z');
        """)
    }
    let repository = try SQLiteSyncRepository(path: path)
    #expect(try await repository.passwordHash(email: "ann@example.org")?.userID == "u1")
    #expect(try await repository.sessions(userID: "u1").map(\.deviceName) == ["laptop"])
    #expect(try await repository.blob(userID: "u1", sha256: "abc") == Data([0]))

    let db = try Database(path: path)
    let tables = try db.query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ) { try $0.get(0, as: String.self) }
    #expect(
      tables == ["blobs", "invites", "records", "schema_migration", "sequence", "server_meta", "tokens", "users"])
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM records") == 1)
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM invites") == 1)
    // The references follow the rename: every row's account is found under the new name.
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
    let references = try db.query("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list('records')") {
      try $0.get(0, as: String.self)
    }
    #expect(references == ["users"])
    try await repository.deleteUser(userID: "u1")
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM tokens") == 0)
  }
}
