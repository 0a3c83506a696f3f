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

  /// The log copied by another connection on another thread while the writer goes on: pages
  /// reach the database file before the writer closes, and everything reads back whole.
  @Test func aBackgroundCheckpointCopiesTheLogWhileTheWriterWrites() throws {
    let before = try databaseBytes()
    let checkpoint = BackgroundCheckpoint(for: db, every: 100, limit: 1_000_000)
    for _ in 0..<10 { try write(rows: 500) }
    // The thread copies when it is scheduled: waited for, not timed.
    for _ in 0..<500 where try databaseBytes() <= before + 1_000_000 { usleep(10_000) }
    checkpoint.stop()
    #expect(try databaseBytes() > before + 1_000_000, "copied before the writer closed")
    let reader = try Database(path: folder.file("log.sqlite"))
    #expect(try reader.scalar(Int.self, "SELECT count(*) FROM item") == 5_000)
    #expect(try reader.scalar(String.self, "PRAGMA integrity_check") == "ok")
    // After it, the writer copies its own log again as SQLite does by itself.
    #expect(try db.scalar(Int.self, "PRAGMA wal_autocheckpoint") == 1_000)
  }

  /// A writer whose log reaches the limit copies it itself, whatever the thread does.
  @Test func aBackgroundCheckpointsWriterCopiesItselfPastTheLimit() throws {
    let before = try databaseBytes()
    let checkpoint = BackgroundCheckpoint(for: db, every: 1_000_000, limit: 100)
    try write()
    #expect(try databaseBytes() > before + 1_000_000)
    checkpoint.stop()
  }
}
