import Foundation
import Testing

@testable import Storage

struct Boom: Error {}

@Suite struct TransactionTests {
  let folder: TemporaryFolder
  let db: Database

  init() throws {
    folder = try TemporaryFolder()
    db = try Database(path: folder.file("tx.sqlite"))
    try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT")
    try db.execute("INSERT INTO item (name) VALUES ('kept')")
  }

  @Test func aThrowRollsBackEverythingAndRethrows() throws {
    let before = try dump(db)
    #expect(throws: Boom.self) {
      try db.transaction { db in
        try db.execute("INSERT INTO item (name) VALUES ('lost')")
        try db.execute("UPDATE item SET name = 'changed'")
        try db.execute("CREATE TABLE extra (x INTEGER) STRICT")
        throw Boom()
      }
    }
    #expect(try dump(db) == before)
    #expect(!db.isInTransaction)
    // The same file seen from a second connection agrees.
    #expect(try dump(Database(path: folder.file("tx.sqlite"))) == before)
  }

  @Test func aFailedStatementInsideRollsBackTheEarlierOnes() throws {
    let before = try dump(db)
    #expect(throws: StorageError.self) {
      try db.transaction { db in
        try db.execute("INSERT INTO item (name) VALUES ('lost')")
        try db.execute("INSERT INTO item (id, name) VALUES (1, 'duplicate key')")
      }
    }
    #expect(try dump(db) == before)
  }

  @Test func successCommitsAndReturnsTheValue() throws {
    let count = try db.transaction { db -> Int64 in
      try db.execute("INSERT INTO item (name) VALUES ('new')")
      return try db.scalar(Int64.self, "SELECT count(*) FROM item") ?? 0
    }
    #expect(count == 2)
    #expect(try Database(path: folder.file("tx.sqlite")).scalar(Int64.self, "SELECT count(*) FROM item") == 2)
  }

  @Test func nestedTransactionsAreSavepointsThatRollBackAlone() throws {
    try db.transaction { db in
      try db.execute("INSERT INTO item (name) VALUES ('outer')")
      #expect(throws: Boom.self) {
        try db.transaction { db in
          try db.execute("INSERT INTO item (name) VALUES ('inner')")
          throw Boom()
        }
      }
      try db.transaction { db in
        try db.execute("INSERT INTO item (name) VALUES ('inner kept')")
      }
    }
    let names = try db.query("SELECT name FROM item ORDER BY id") { try $0.get(0, as: String.self) }
    #expect(names == ["kept", "outer", "inner kept"])
  }

  @Test func anOuterThrowUndoesCommittedSavepoints() throws {
    let before = try dump(db)
    #expect(throws: Boom.self) {
      try db.transaction { db in
        try db.transaction { db in try db.execute("INSERT INTO item (name) VALUES ('inner')") }
        throw Boom()
      }
    }
    #expect(try dump(db) == before)
  }

  /// `withPageCache`: the cache held to a size for a scan, and given back its own after, whatever
  /// the scan does.
  @Test func aScanHoldsThePageCacheAndGivesItBackAfter() throws {
    func cacheSize() throws -> Int? { try db.scalar(Int.self, "PRAGMA cache_size") }
    #expect(try cacheSize() == -32768, "a database opens with 32 MiB of cache")
    #expect(try db.withPageCache(kibibytes: 2048) { try cacheSize() } == -2048)
    #expect(try cacheSize() == -32768)
    #expect(throws: Boom.self) { try db.withPageCache(kibibytes: 512) { throw Boom() } }
    #expect(try cacheSize() == -32768, "a scan that throws gives the cache back too")
  }
}
