import AtRest
import Cryptography
import Foundation
import Storage
import Testing

/// The sealing VFS under SQLite's real workload: the log, checkpoints, a rollback journal, a
/// backup, sorts too big for the page cache.
@Suite struct SealedStorageTests {
  /// What the database, its log and its journal hold never shows in their bytes; the same steps
  /// on a plain database find the marker in each file, so the search itself works.
  @Test(arguments: [true, false])
  func noRecordReachesTheDiskInTheClear(sealed: Bool) throws {
    let folder = try Folder()
    let path = sealed ? try sealedDatabase(in: folder).path : folder.file("plain.sqlite")
    let marker = "MARKER-\(UUID().uuidString.prefix(8))"
    do {
      let db = try Database(path: path)
      // A second connection keeps the log from being removed when the first one checkpoints.
      let reader = try Database(path: path)
      try fillNotes(db, marker: marker)
      #expect(try reader.scalar(Int.self, "SELECT count(*) FROM note WHERE body LIKE ?", marker + "%") == 2000)
      #expect(fileSize(path + "-wal") > 100_000, "the log should hold pages")
      #expect(fileHolds(path + "-wal", marker) == !sealed)
      try db.execute("PRAGMA wal_checkpoint(FULL)")
      #expect(fileHolds(path, marker) == !sealed)
    }
    // A rollback journal that exclusive locking keeps after its commit, pages and all.
    let alone = try Database(path: path)
    #expect(try alone.holdAlone())
    try alone.execute("UPDATE note SET body = 'changed' WHERE id % 3 = 0")
    #expect(fileSize(path + "-journal") > 100_000, "the journal should hold the pages the update changed")
    #expect(fileHolds(path + "-journal", marker) == !sealed)
    #expect(try alone.scalar(Int.self, "SELECT count(*) FROM note WHERE body = 'changed'") == 666)
    #expect(try alone.integrityProblems() == [])
  }
}

/// A page that does not open is an error that names it, never data that is silently wrong.
@Suite struct DamagedPageTests {
  /// A database of a few dozen pages, checkpointed and closed: everything is in the file.
  func filled() throws -> (Folder, String) {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    try fillNotes(Database(path: path), marker: "note")
    #expect(try SealedPages.check(databaseAt: path).damaged == [])
    return (folder, path)
  }

  func scanError(_ path: String) -> StorageError? {
    do {
      _ = try Database(path: path).scalar(Int.self, "SELECT count(*) FROM note WHERE length(body) > 0")
      return nil
    } catch { return error as? StorageError }
  }

  @Test func aFlippedByteInAPageNamesThatPage() throws {
    let (folder, path) = try filled()
    _ = folder
    let byte = try readBytes(path, at: pageOffset(5) + 700, count: 1)[0]
    try overwrite(path, at: pageOffset(5) + 700, with: [byte ^ 0x10])
    #expect(try SealedPages.check(databaseAt: path).damaged == [5])
    #expect(scanError(path) == .damagedPage(kind: .database, position: 5))
    #expect("\(scanError(path)!)".contains("damaged at page 5"))
  }

  @Test func aFlippedSealNamesThatPage() throws {
    let (folder, path) = try filled()
    _ = folder
    let at = pageOffset(7) + SealedPages.pageSize - 1
    let byte = try readBytes(path, at: at, count: 1)[0]
    try overwrite(path, at: at, with: [byte ^ 1])
    #expect(try SealedPages.check(databaseAt: path).damaged == [7])
  }

  @Test func twoPagesSwappedDoNotOpen() throws {
    let (folder, path) = try filled()
    _ = folder
    let third = try readBytes(path, at: pageOffset(3), count: SealedPages.pageSize)
    let fourth = try readBytes(path, at: pageOffset(4), count: SealedPages.pageSize)
    try overwrite(path, at: pageOffset(3), with: fourth)
    try overwrite(path, at: pageOffset(4), with: third)
    #expect(try SealedPages.check(databaseAt: path).damaged == [3, 4])
    #expect(scanError(path) != nil)
  }

  @Test func aFileCutShortInAPageNamesTheLastPage() throws {
    let (folder, path) = try filled()
    _ = folder
    let pages = try SealedPages.check(databaseAt: path).pages
    #expect(truncate(path, off_t(pageOffset(pages) + 1000)) == 0)
    #expect(try SealedPages.check(databaseAt: path).damaged == [pages])
    #expect(scanError(path) != nil)
  }

  @Test func pagesSealedWithAnotherKeyDoNotOpen() throws {
    let (folder, path) = try filled()
    let (other, _) = try sealedDatabase(in: folder, name: "other.sqlite")
    try fillNotes(Database(path: other), marker: "other")
    // The other database's header in front of this database's pages: its key opens none.
    try overwrite(path, at: 0, with: try readBytes(other, at: 0, count: SealedPages.headerSize))
    SealedPages.alias(databaseAt: path, sameAs: other)
    let result = try SealedPages.check(databaseAt: path)
    #expect(result.damaged.count == result.pages)
    #expect(scanError(path) == .damagedPage(kind: .database, position: 1))
  }

  /// A page of the log that does not open is an error while the log is in use.
  @Test func aFlippedByteInTheLogNamesItsFrame() throws {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    let db = try Database(path: path)
    try db.execute("PRAGMA wal_autocheckpoint = 0")
    try fillNotes(db, marker: "note", count: 300)
    // The last frame is the newest copy of its page, which a scan of the table reads.
    let frames = (fileSize(path + "-wal") - 32) / (24 + SealedPages.pageSize)
    let at = 32 + (frames - 1) * (24 + SealedPages.pageSize) + 24 + 500
    let byte = try readBytes(path + "-wal", at: at, count: 1)[0]
    try overwrite(path + "-wal", at: at, with: [byte ^ 0x40])
    let fresh = try Database(path: path)
    #expect(throws: StorageError.self) { _ = try fresh.scalar(Int.self, "SELECT sum(length(body)) FROM note") }
    _ = db
  }
}
