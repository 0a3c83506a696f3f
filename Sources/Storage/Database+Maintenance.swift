internal import CSQLite
import Foundation

extension Database {
  /// `PRAGMA integrity_check`: an empty list when the file is sound, else SQLite's findings.
  public func integrityProblems() throws -> [String] {
    let lines = try query("PRAGMA integrity_check") { try $0.get(0, as: String.self) }
    return lines == ["ok"] ? [] : lines
  }

  /// Copies the whole database into a new file at `path` with SQLite's online backup API,
  /// which reads a consistent snapshot while other connections keep writing.
  ///
  /// The copy is written next to `path` under a temporary name and renamed when complete, so a
  /// failed backup leaves nothing behind. An existing file is refused unless `replacing` is set.
  public func backup(to path: String, replacing: Bool = false) throws {
    let fm = FileManager.default
    if fm.fileExists(atPath: path) && !replacing {
      throw StorageError.backupFailed(path: path, reason: "the file exists; choose another name or remove it first")
    }
    let temporary = path + ".partial-\(UUID().uuidString.prefix(8))"
    var destination: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let previousMask = umask(0o077)
    let rc = sqlite3_open_v2(temporary, &destination, flags, nil)
    umask(previousMask)
    defer { try? fm.removeItem(atPath: temporary) }
    guard rc == SQLITE_OK, let destination else {
      sqlite3_close_v2(destination)
      throw StorageError.backupFailed(path: path, reason: String(cString: sqlite3_errstr(rc)))
    }
    var failure: String?
    if let backup = sqlite3_backup_init(destination, "main", handle, "main") {
      let step = sqlite3_backup_step(backup, -1)
      if step != SQLITE_DONE { failure = String(cString: sqlite3_errstr(step)) }
      let finish = sqlite3_backup_finish(backup)
      if failure == nil && finish != SQLITE_OK { failure = String(cString: sqlite3_errstr(finish)) }
    } else {
      failure = String(cString: sqlite3_errmsg(destination))
    }
    sqlite3_close_v2(destination)
    if let failure { throw StorageError.backupFailed(path: path, reason: failure) }
    guard rename(temporary, path) == 0 else {
      throw StorageError.backupFailed(path: path, reason: String(cString: strerror(errno)))
    }
  }
}
