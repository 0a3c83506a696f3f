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
