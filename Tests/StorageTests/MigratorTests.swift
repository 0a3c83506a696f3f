import Foundation
import Testing

@testable import Storage

@Suite struct MigratorTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  let history = Migrator([
    Migration("0001_first", sql: "CREATE TABLE first (id TEXT PRIMARY KEY) STRICT;"),
    Migration("0002_second", sql: "CREATE TABLE second (id TEXT PRIMARY KEY) STRICT;"),
  ])

  @Test func aFreshDatabaseGetsEveryMigrationInOrder() throws {
    let db = try Database(path: folder.file("m.sqlite"))
    #expect(try history.migrate(db) == ["0001_first", "0002_second"])
    #expect(try history.appliedMigrations(in: db) == ["0001_first", "0002_second"])
    #expect(try db.scalar(Int.self, "PRAGMA user_version") == 2)
  }

  @Test func migratingTwiceIsANoOp() throws {
    let db = try Database(path: folder.file("m.sqlite"))
    try history.migrate(db)
    let before = try dump(db)
    #expect(try history.migrate(db) == [])
    #expect(try dump(db) == before)
  }

  @Test func anOlderDatabaseGetsOnlyTheNewMigrations() throws {
    let db = try Database(path: folder.file("m.sqlite"))
    try Migrator(Array(history.migrations.prefix(1))).migrate(db)
    #expect(try history.migrate(db) == ["0002_second"])
  }

  @Test func aDatabaseFromTheFutureIsRefusedAndLeftUntouched() throws {
    let path = folder.file("future.sqlite")
    do {
      let newer = Migrator(
        history.migrations + [Migration("0003_future", sql: "CREATE TABLE future (x INTEGER) STRICT;")])
      try newer.migrate(try Database(path: path))
    }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let db = try Database(path: path)
    #expect(throws: StorageError.newerSchema(found: 3, supported: 2)) { try history.migrate(db) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    #expect(try history.appliedMigrations(in: db).count == 3)
  }

  @Test func aFailingMigrationRollsBackWithItsBookkeepingRow() throws {
    let db = try Database(path: folder.file("m.sqlite"))
    let broken = Migrator(
      history.migrations + [
        Migration("0003_broken") { db in
          try db.execute("CREATE TABLE half (x INTEGER) STRICT")
          try db.execute("INSERT INTO nowhere VALUES (1)")
        }
      ])
    #expect(throws: StorageError.self) { try broken.migrate(db) }
    #expect(try broken.appliedMigrations(in: db) == ["0001_first", "0002_second"])
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'half'") == 0)
    #expect(try db.scalar(Int.self, "PRAGMA user_version") == 2)
  }
}

/// `rebuild` changes a table's key in place of SQLite's missing `ALTER TABLE ... PRIMARY KEY`.
@Suite struct RebuildTests {
  @Test func aRebuiltTableKeepsItsRowsAndGetsItsNewKeyAndIndexes() throws {
    let folder = try TemporaryFolder()
    let db = try Database(path: folder.file("r.sqlite"))
    try db.executeScript(
      """
      CREATE TABLE owner (id TEXT PRIMARY KEY) STRICT;
      CREATE TABLE note (id TEXT PRIMARY KEY, owner TEXT NOT NULL REFERENCES owner(id), body TEXT) STRICT;
      CREATE INDEX note_owner ON note(owner);
      INSERT INTO owner VALUES ('a'), ('b');
      INSERT INTO note VALUES ('n1', 'a', 'first'), ('n2', 'a', NULL);
      """)
    let note = Table(
      "note",
      [
        .text("id", "NOT NULL"), .text("owner", "NOT NULL REFERENCES owner(id)"), .text("body"), .integer("added"),
      ], constraints: ["PRIMARY KEY (owner, id)"], indexes: ["note_owner_body": "owner, body"])
    try Migrator([Migration("0001_rekey", rebuilding: [note])]).migrate(db)

    let rows = try db.query("SELECT id, owner, coalesce(body, '-'), added FROM note ORDER BY id") {
      "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: String.self)) \(try $0.get(2, as: String.self)) \(try $0.get(3, as: Int?.self).map(String.init) ?? "nil")"
    }
    #expect(rows == ["n1 a first nil", "n2 a - nil"])
    // The same id under another owner is a row of its own now; under the same owner, a conflict.
    try db.execute("INSERT INTO note (id, owner) VALUES ('n1', 'b')")
    #expect(throws: StorageError.self) { try db.execute("INSERT INTO note (id, owner) VALUES ('n1', 'a')") }
    let indexes = try db.query(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'note' AND sql IS NOT NULL ORDER BY name"
    ) { try $0.get(0, as: String.self) }
    #expect(indexes == ["note_owner_body"])
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%before_rebuild%'") == 0)
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
  }
}
