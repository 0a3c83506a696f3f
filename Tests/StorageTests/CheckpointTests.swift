import Foundation
import Testing

@testable import Storage

/// Deferred checkpoints: a commit leaves the write-ahead log as it is until the caller copies
/// it, except past the limit, where the commit copies it itself.
@Suite struct CheckpointTests {
  let folder: TemporaryFolder
  let db: Database

  init() throws {
    folder = try TemporaryFolder()
    db = try Database(path: folder.file("log.sqlite"))
    try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT")
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  func databaseBytes() throws -> Int {
    try FileManager.default.attributesOfItem(atPath: folder.file("log.sqlite"))[.size] as? Int ?? 0
  }

  /// About 300 pages of rows in one commit.
  func write(rows: Int = 2_000) throws {
    try db.transaction { db in
      for i in 0..<rows {
        try db.execute("INSERT INTO item (body) VALUES (?)", String(repeating: "x", count: 500) + "\(i)")
      }
    }
  }

  @Test func aCommitLeavesTheLogUntilTheCallerCopiesIt() throws {
    db.deferCheckpoints(after: 50, limit: 100_000)
    let before = try databaseBytes()
    try write()
    #expect(try databaseBytes() == before, "nothing copied at the commit")
    #expect(db.isCheckpointDue)
    try db.checkpointIfDue()
    #expect(try databaseBytes() > before + 1_000_000)
    #expect(!db.isCheckpointDue)
    // What was copied reads the same from a new connection.
    #expect(try Database(path: folder.file("log.sqlite")).scalar(Int.self, "SELECT count(*) FROM item") == 2_000)
  }

  @Test func aCommitPastTheLimitCopiesTheLogItself() throws {
    db.deferCheckpoints(after: 10, limit: 100)
    let before = try databaseBytes()
    try write()
    #expect(try databaseBytes() > before + 1_000_000)
    #expect(!db.isCheckpointDue)
  }

  @Test func belowThePagesNothingIsDueAndNothingCopied() throws {
    db.deferCheckpoints(after: 1_000, limit: 10_000)
    let before = try databaseBytes()
    try write(rows: 10)
    #expect(!db.isCheckpointDue)
    try db.checkpointIfDue()
    #expect(try databaseBytes() == before)
  }

  @Test func aDurableCommitIsFullAndNormalComesBack() throws {
    #expect(try db.scalar(Int.self, "PRAGMA synchronous") == 1)
    try db.durably {
      #expect(try db.scalar(Int.self, "PRAGMA synchronous") == 2)
      try db.execute("INSERT INTO item (body) VALUES ('a')")
    }
    #expect(try db.scalar(Int.self, "PRAGMA synchronous") == 1)
    try db.durably(when: false) {
      let level = try db.scalar(Int.self, "PRAGMA synchronous")
      #expect(level == 1)
    }
    // Inside a transaction SQLite refuses the switch: the body runs as it is.
    try db.transaction { db in
      try db.durably { try db.execute("INSERT INTO item (body) VALUES ('b')") }
    }
    struct Refused: Error {}
    #expect(throws: Refused.self) { try db.durably { throw Refused() } }
    #expect(try db.scalar(Int.self, "PRAGMA synchronous") == 1, "NORMAL back after a failure too")
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM item") == 2)
  }
}
