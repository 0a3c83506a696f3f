import Foundation
import Schema
import Testing

@testable import Storage

@Suite struct MaintenanceTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  @Test func aBackupHoldsTheSameRowsAndPassesIntegrityCheck() throws {
    let db = try VitalSchema.open(path: folder.file("live.sqlite"))
    try db.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT) STRICT")
    for i in 0..<500 { try db.execute("INSERT INTO note (body) VALUES (?)", "note \(i)") }
    try db.backup(to: folder.file("copy.sqlite"))
    let copy = try Database(path: folder.file("copy.sqlite"))
    #expect(try copy.integrityProblems() == [])
    #expect(try dump(copy) == dump(db))
    var info = stat()
    stat(folder.file("copy.sqlite"), &info)
    #expect(info.st_mode & 0o777 == 0o600)
  }

  @Test func aBackupRefusesToOverwriteAndLeavesNothingBehind() throws {
    let db = try Database(path: folder.file("live.sqlite"))
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder.file("taken")))
    #expect(throws: StorageError.self) { try db.backup(to: folder.file("taken")) }
    #expect(try String(contentsOfFile: folder.file("taken"), encoding: .utf8) == "keep me")
    #expect(throws: StorageError.self) { try db.backup(to: folder.file("missing-dir/copy.sqlite")) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["live.sqlite", "taken"])
  }

  @Test func integrityCheckFindsADamagedFile() throws {
    let path = folder.file("damaged.sqlite")
    do {
      let db = try Database(path: path)
      try db.execute("PRAGMA journal_mode=DELETE")
      try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT) STRICT")
      try db.execute("CREATE INDEX t_body ON t(body)")
      try db.transaction { db in
        for i in 0..<2000 {
          try db.execute("INSERT INTO t (body) VALUES (?)", "row \(i) " + String(repeating: "y", count: 100))
        }
      }
    }
    // Scribble over the middle of the file, away from the header and the schema page.
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: size / 2)
    handle.write(Data(repeating: 0xA5, count: 8192))
    try handle.close()
    let problems: [String]
    do {
      problems = try Database(path: path).integrityProblems()
    } catch let error as StorageError {
      problems = ["\(error)"]  // SQLITE_CORRUPT while reading is a finding too
    }
    #expect(!problems.isEmpty)
  }
}
