import Foundation
import Testing

@testable import Storage

@Suite struct CommitGroupTests {
  let folder: TemporaryFolder
  let db: Database

  init() throws {
    folder = try TemporaryFolder()
    db = try Database(path: folder.file("group.sqlite"))
    try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT")
  }

  /// What another connection (another process) sees: only what was committed.
  func committed() throws -> [String] {
    try Database(path: folder.file("group.sqlite")).query("SELECT name FROM item ORDER BY id") {
      try $0.get(0, as: String.self)
    }
  }

  func insert(_ names: String...) -> (Database) throws -> Void {
    { db in for name in names { try db.execute("INSERT INTO item (name) VALUES (?)", name) } }
  }

  @Test func writesCommitOnceTheyHoldEnoughRows() throws {
    let group = CommitGroup(db, rowsPerCommit: 3)
    try group.write(rows: 2, insert("a", "b"))
    #expect(db.isInTransaction)
    #expect(try committed() == [])
    try group.write(rows: 1, insert("c"))
    #expect(!db.isInTransaction)
    #expect(try committed() == ["a", "b", "c"])
    try group.write(rows: 1, insert("d"))
    #expect(try committed() == ["a", "b", "c"])
    try group.commit()
    #expect(try committed() == ["a", "b", "c", "d"])
    #expect(!db.isInTransaction)
  }

  @Test func aFailedWriteLosesWhatTheGroupHeldAndTheGroupGoesOn() throws {
    let group = CommitGroup(db, rowsPerCommit: 3)
    try group.write(rows: 3, insert("a", "b", "c"))
    try group.write(rows: 1, insert("d"))
    #expect(throws: Boom.self) {
      try group.write(rows: 1) { db in
        try insert("e")(db)
        throw Boom()
      }
    }
    #expect(!db.isInTransaction)
    #expect(try db.query("SELECT name FROM item ORDER BY id") { try $0.get(0, as: String.self) } == ["a", "b", "c"])
    #expect(db.transactionDepth == 0)
    try group.write(rows: 1, insert("f"))
    try group.commit()
    #expect(try committed() == ["a", "b", "c", "f"])
  }

  @Test func otherTransactionsWhileItIsOpenCommitWithIt() throws {
    let group = CommitGroup(db, rowsPerCommit: 10)
    try group.write(rows: 1, insert("a"))
    try db.transaction { db in try insert("b")(db) }
    #expect(try committed() == [])
    try group.commit()
    #expect(try committed() == ["a", "b"])
  }

  @Test func insideSomeoneElsesTransactionItIsPartOfThat() throws {
    let group = CommitGroup(db, rowsPerCommit: 1)
    #expect(throws: Boom.self) {
      try db.transaction { _ in
        try group.write(rows: 5, insert("a"))
        #expect(db.isInTransaction)
        throw Boom()
      }
    }
    try group.commit()
    #expect(!db.isInTransaction)
    #expect(try committed() == [])
  }

  @Test func aGroupOpenLongerThanItMayCommitsAtTheNextWrite() throws {
    let group = CommitGroup(db, rowsPerCommit: 1000, secondsOpen: 0.05)
    try group.write(rows: 1, insert("a"))
    #expect(try committed() == [])
    Thread.sleep(forTimeInterval: 0.1)
    try group.write(rows: 1, insert("b"))
    #expect(!db.isInTransaction)
    #expect(try committed() == ["a", "b"])
  }

  @Test func aRollBackDropsWhatTheGroupHeld() throws {
    let group = CommitGroup(db, rowsPerCommit: 1000)
    try group.write(rows: 1, insert("a"))
    group.rollBack()
    #expect(!db.isInTransaction && db.transactionDepth == 0)
    try group.commit()
    #expect(try committed() == [])
  }
}
