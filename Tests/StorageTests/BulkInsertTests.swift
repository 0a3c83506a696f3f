import Foundation
import Testing

@testable import Storage

@Suite struct BulkInsertTests {
  let db: Database

  init() throws {
    db = try Database.inMemory()
    try db.execute("CREATE TABLE visit (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, at TEXT NOT NULL) STRICT")
    try db.execute("CREATE INDEX visit_at ON visit(at DESC, code)")
    try db.execute("CREATE INDEX visit_day ON visit(substr(at, 1, 10))")
  }

  func indexes() throws -> [String: String?] {
    Dictionary(
      uniqueKeysWithValues: try db.query(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'visit'"
      ) { (try $0.get(0, as: String.self), try $0.get(1, as: String?.self)) })
  }

  @Test func indexesAreGoneDuringTheInsertAndBackAfterIt() throws {
    let before = try indexes()
    #expect(before.count == 3, "two indexes and the one UNIQUE makes")
    try db.transaction { db in
      try db.withIndexesBuiltAfter(on: "visit") {
        // Only the index the UNIQUE constraint makes stays: it still refuses duplicates.
        #expect(try indexes().keys.sorted() == ["sqlite_autoindex_visit_1"])
        for i in 0..<500 {
          try db.execute("INSERT INTO visit (code, at) VALUES (?, ?)", "c\(i)", "2026-11-\(10 + i % 20)T08:00")
        }
        #expect(throws: StorageError.self) { try db.execute("INSERT INTO visit (code, at) VALUES ('c1', 'x')") }
      }
    }
    #expect(try indexes() == before)
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM visit INDEXED BY visit_at") == 500)
    #expect(try db.integrityProblems().isEmpty)
  }

  @Test func aFailedInsertLeavesTheIndexesAndNoRows() throws {
    let before = try indexes()
    #expect(throws: Boom.self) {
      try db.transaction { db in
        try db.withIndexesBuiltAfter(on: "visit") {
          try db.execute("INSERT INTO visit (code, at) VALUES ('a', '2026-11-01')")
          throw Boom()
        }
      }
    }
    #expect(try indexes() == before)
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM visit") == 0)
  }

  /// A caller that goes on after the failure and commits still has its indexes.
  @Test func aFailureCaughtInsideTheTransactionStillBuildsTheIndexes() throws {
    let before = try indexes()
    try db.transaction { db in
      #expect(throws: Boom.self) { try db.withIndexesBuiltAfter(on: "visit") { throw Boom() } }
      try db.execute("INSERT INTO visit (code, at) VALUES ('a', '2026-11-01')")
    }
    #expect(try indexes() == before)
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM visit INDEXED BY visit_day") == 1)
  }
}
