import AtRest
import Cryptography
import Foundation
import Storage
import Testing

@Suite struct SealedCopyTests {
  @Test func aBackupIsSealedWithTheSameKeyAndAPlainOneIsAnOrdinaryFile() throws {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    let db = try Database(path: path)
    try fillNotes(db, marker: "MARKER-backup")
    try db.backup(to: folder.file("sealed-copy.sqlite"))
    try db.backup(to: folder.file("plain-copy.sqlite"), plain: true)

    #expect(!fileHolds(folder.file("sealed-copy.sqlite"), "MARKER-backup"))
    #expect(SealedPages.isSealed(fileAt: folder.file("sealed-copy.sqlite")))
    #expect(throws: StorageError.sealed(path: folder.file("sealed-copy.sqlite"))) {
      try Database(path: folder.file("sealed-copy.sqlite"))
    }
    SealedPages.alias(databaseAt: folder.file("sealed-copy.sqlite"), sameAs: path)
    #expect(try Database(path: folder.file("sealed-copy.sqlite")).scalar(Int.self, "SELECT count(*) FROM note") == 2000)

    #expect(fileHolds(folder.file("plain-copy.sqlite"), "MARKER-backup"))
    #expect(!SealedPages.isSealed(fileAt: folder.file("plain-copy.sqlite")))
    let plain = try Database(path: folder.file("plain-copy.sqlite"))
    #expect(try plain.scalar(Int.self, "SELECT count(*) FROM note") == 2000)
    #expect(try plain.integrityProblems() == [])
  }

  /// Sorts, index builds and a VACUUM far bigger than the page cache: SQLite would spill them
  /// to temporary files, which on a sealed connection stay in memory.
  @Test func bigSortsAndRebuildsOpenNoTemporaryFile() throws {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    let db = try Database(path: path)
    try db.execute("PRAGMA cache_size = -500")
    try fillNotes(db, marker: "sort", count: 20000)
    let refused = SealedPages.refusedTemporaryFiles
    let unclean = SealedPages.uncleanWrites
    _ = try db.query("SELECT body FROM note ORDER BY random()") { try $0.get(0, as: String.self) }
    try db.execute("CREATE INDEX note_body ON note (body)")
    try db.execute("VACUUM")
    _ = try db.query("SELECT DISTINCT substr(body, 1, 12) FROM note") { try $0.get(0, as: String.self) }
    #expect(SealedPages.refusedTemporaryFiles == refused)
    #expect(SealedPages.uncleanWrites == unclean)
    #expect(try db.integrityProblems() == [])
  }

  /// Several connections reading on their threads while one writes, as the health totals'
  /// rebuild and an import's writer thread do.
  @Test func connectionsOnSeveralThreadsShareTheKey() async throws {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    let db = try Database(path: path)
    try fillNotes(db, marker: "thread", count: 3000)
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var options = Database.Options()
          options.readOnly = true
          let reader = try Database(path: path, options: options)
          return try reader.scalar(Int.self, "SELECT count(*) FROM note WHERE body LIKE 'thread %'") ?? -1
        }
      }
      try fillNotes(db, marker: "more", count: 1000)
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(counts == [3000, 3000, 3000, 3000])
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM note") == 4000)
  }

  @Test func bulkWritesWithARollbackJournalAndDeferredCheckpoints() throws {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    let db = try Database(path: path)
    try db.withRollbackJournal { try fillNotes(db, marker: "bulk", count: 5000) }
    #expect(try db.scalar(String.self, "PRAGMA journal_mode") == "wal")
    db.deferCheckpoints(after: 50, limit: 1000)
    try fillNotes(db, marker: "deferred", count: 2000)
    try db.checkpointIfDue()
    let reopened = try Database(path: path)
    #expect(try reopened.scalar(Int.self, "SELECT count(*) FROM note") == 7000)
    #expect(try reopened.integrityProblems() == [])
    #expect(try SealedPages.check(databaseAt: path).damaged == [])
  }

  /// docs/at-rest.md's page, computed with nothing but AES-GCM: a page sealed by the VFS opens,
  /// and one sealed so by hand is read by SQLite.
  @Test func aPageIsAESGCMOfItsBodyBoundToItsKindAndNumber() throws {
    let folder = try Folder()
    let (path, key) = try sealedDatabase(in: folder)
    let db = try Database(path: path)
    try fillNotes(db, marker: "known", count: 200)
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try db.backup(to: folder.file("plain.sqlite"), plain: true)
    let body = SealedPages.pageSize - SealedPages.reserve
    let gcm = try AESGCMKey(key)
    func aad(_ page: Int) -> [UInt8] { [1] + (0..<8).map { UInt8(truncatingIfNeeded: page >> (56 - 8 * $0)) } }

    let sealed = try readBytes(path, at: pageOffset(2), count: SealedPages.pageSize)
    let nonce = Array(sealed[body..<body + 12])
    let tag = Array(sealed[(body + 12)...])
    let opened = try #require(gcm.open(nonce + sealed[..<body] + tag, aad: aad(2)))
    let plain = try readBytes(folder.file("plain.sqlite"), at: SealedPages.pageSize, count: SealedPages.pageSize)
    #expect(opened == Array(plain[..<body]))
    #expect(gcm.open(nonce + sealed[..<body] + tag, aad: aad(3)) == nil, "a page does not open as another")

    // The reverse: page 2 sealed anew by hand, under a nonce of our choosing.
    let mine = try AESGCMNonce(bytes: Array(repeating: 7, count: 12))
    let resealed = try gcm.dangerousSeal(explicitNonce: mine, opened, aad: aad(2))
    try overwrite(path, at: pageOffset(2), with: Array(resealed[12..<12 + body]) + mine.bytes + resealed.suffix(16))
    #expect(try SealedPages.check(databaseAt: path).damaged == [])
    #expect(try Database(path: path).scalar(Int.self, "SELECT count(*) FROM note") == 200)
  }
}
