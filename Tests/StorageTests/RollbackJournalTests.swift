import Foundation
import Testing

@testable import Storage

/// A bulk write goes through a rollback journal only when nothing else has the database open,
/// and the write-ahead log is back after it, whatever happened inside.
@Suite struct RollbackJournalTests {
  let folder: TemporaryFolder
  let db: Database

  init() throws {
    folder = try TemporaryFolder()
    db = try Database(path: folder.file("bulk.sqlite"))
    try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT")
  }

  func mode(_ db: Database) throws -> String? { try db.scalar(String.self, "PRAGMA journal_mode") }

  @Test func aloneTheWriteGoesThroughAJournalAndTheLogIsBackAfter() throws {
    #expect(try mode(db) == "wal")
    try db.withRollbackJournal {
      #expect(try mode(db) == "delete")
      #expect(try db.scalar(Int.self, "PRAGMA synchronous") == 2, "FULL: NORMAL can lose a journaled commit")
      try db.transaction { db in
        for i in 0..<2_000 {
          try db.execute("INSERT INTO item (id, body) VALUES (?, ?)", i, String(repeating: "x", count: 500))
        }
      }
    }
    #expect(try mode(db) == "wal")
    #expect(try db.scalar(Int.self, "PRAGMA synchronous") == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.file("bulk.sqlite-journal")))
    // Another connection reads what was written.
    #expect(try Database(path: folder.file("bulk.sqlite")).scalar(Int.self, "SELECT count(*) FROM item") == 2_000)
  }

  @Test func withAnotherConnectionOpenItStaysInTheLog() throws {
    let other = try Database(path: folder.file("bulk.sqlite"))
    #expect(try other.scalar(Int.self, "SELECT count(*) FROM item") == 0)
    try db.withRollbackJournal {
      #expect(try mode(db) == "wal")
      try db.execute("INSERT INTO item (id, body) VALUES (1, 'a')")
      // The other connection still reads while the write is under way: the log is in use.
      #expect(try other.scalar(Int.self, "SELECT count(*) FROM item") == 1)
    }
    #expect(try mode(db) == "wal")
  }

  @Test func insideATransactionItStaysInTheLog() throws {
    try db.transaction { db in
      try db.withRollbackJournal {
        #expect(try mode(db) == "wal")
        try db.execute("INSERT INTO item (id, body) VALUES (1, 'a')")
      }
    }
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM item") == 1)
  }

  @Test func aFailureLeavesNothingWrittenAndTheLogBack() throws {
    #expect(throws: Boom.self) {
      try db.withRollbackJournal {
        try db.transaction { db in
          for i in 0..<2_000 { try db.execute("INSERT INTO item (id, body) VALUES (?, 'x')", i) }
          throw Boom()
        }
      }
    }
    #expect(try mode(db) == "wal")
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM item") == 0)
    #expect(try db.integrityProblems().isEmpty)
  }

}
