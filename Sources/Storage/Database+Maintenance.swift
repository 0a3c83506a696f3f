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
  ///
  /// The copy of a sealed database is sealed with the same key (it begins with the same header),
  /// unless `plain`: then it is an ordinary SQLite file.
  public func backup(to path: String, replacing: Bool = false, plain: Bool = false) throws {
    let fm = FileManager.default
    if isOneOfItsFiles(path) {
      throw StorageError.backupFailed(
        path: path, reason: "that is the database itself (or its log or journal); choose a file elsewhere")
    }
    if fm.fileExists(atPath: path) && !replacing {
      throw StorageError.backupFailed(
        path: path, reason: "the file exists; choose another name, or replace it with --force")
    }
    let temporary = path + ".partial-\(UUID().uuidString.prefix(8))"
    var destination: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let previousMask = umask(0o077)
    let sealedWith = plain ? nil : vfs
    if sealedWith != nil {
      do { try copyHeader(to: temporary) } catch {
        umask(previousMask)
        throw StorageError.backupFailed(path: path, reason: "\(error)")
      }
    }
    let rc = sqlite3_open_v2(temporary, &destination, flags, sealedWith)
    umask(previousMask)
    defer { try? fm.removeItem(atPath: temporary) }
    guard rc == SQLITE_OK, let destination else {
      sqlite3_close_v2(destination)
      throw StorageError.backupFailed(path: path, reason: String(cString: sqlite3_errstr(rc)))
    }
    var failure: String?
    if sealedWith != nil {
      var reserve = Int32(SealedPages.reserve)
      sqlite3_file_control(destination, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve)
      sqlite3_exec(destination, "PRAGMA temp_store = MEMORY", nil, nil, nil)
    }
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

  /// Whether this connection goes through the sealing VFS.
  public var isSealed: Bool { vfs != nil }

  /// Starts `target` with this sealed database's header: the same key opens both.
  func copyHeader(to target: String) throws {
    guard let source = FileHandle(forReadingAtPath: path) else {
      throw StorageError.cannotOpen(path: path, code: SQLITE_CANTOPEN, message: "cannot read its header")
    }
    defer { try? source.close() }
    guard let header = try source.read(upToCount: SealedPages.headerSize), header.count == SealedPages.headerSize else {
      throw StorageError.cannotOpen(path: path, code: SQLITE_CORRUPT, message: "its header is cut short")
    }
    guard FileManager.default.createFile(atPath: target, contents: header, attributes: [.posixPermissions: 0o600])
    else {
      throw StorageError.backupFailed(path: target, reason: String(cString: strerror(errno)))
    }
  }

  /// Keeps every other connection out until this one closes: a rollback journal instead of the
  /// log, and an exclusive lock taken at once and kept. False, with nothing changed, when
  /// another connection has the database open; for rewriting the whole file (`vacuum(into:)`
  /// and a rename) without losing what another program would write meanwhile.
  public func holdAlone() throws -> Bool {
    guard !isInTransaction else { return false }
    sqlite3_busy_timeout(handle, 0)
    defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
    if try scalar(String.self, "PRAGMA journal_mode") == "wal" {
      guard (try? scalar(String.self, "PRAGMA journal_mode=DELETE")) == "delete" else { return false }
    }
    try execute("PRAGMA locking_mode = EXCLUSIVE")
    do {
      try execute("BEGIN EXCLUSIVE")
      try execute("COMMIT")
    } catch {
      return false
    }
    return true
  }

  /// Writes a compact copy of the whole database into the new file `target` (VACUUM INTO):
  /// sealed when a cipher is registered for `target`, whose file then holds only its header
  /// (`SealedPages`), else an ordinary SQLite file.
  public func vacuum(into target: String) throws {
    let sealedWith = SealedPages.vfsName(forDatabaseAt: target)
    if sealedWith != nil {
      // The copy takes its page size and the bytes each page keeps free from this connection;
      // the page size first, since setting it asks for no free bytes.
      try execute("PRAGMA page_size = \(SealedPages.pageSize)")
      var reserve = Int32(SealedPages.reserve)
      sqlite3_file_control(handle, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve)
    }
    let vfs = sealedWith ?? sqlite3_vfs_find(nil).map { String(cString: $0.pointee.zName) } ?? "unix"
    try execute("VACUUM INTO ?", Self.uri(target, vfs: vfs))
  }

  /// A `file:` URI naming `path` and the VFS that opens it.
  static func uri(_ path: String, vfs: String) -> String {
    var encoded = ""
    for character in path.unicodeScalars {
      switch character {
      case "%", "?", "#": encoded += String(format: "%%%02X", character.value)
      default: encoded.unicodeScalars.append(character)
      }
    }
    return "file:" + encoded + "?vfs=" + vfs
  }
}

extension Database {
  /// Whether `path` names this database's file, its log, its journal or its shared memory, by
  /// name (a log not there yet would be read as one) or as the same file under another name.
  func isOneOfItsFiles(_ path: String) -> Bool {
    let target = SealedPages.canonical(path)
    let own = SealedPages.canonical(self.path)
    if ["", "-wal", "-journal", "-shm"].contains(where: { own + $0 == target }) { return true }
    var a = stat()
    var b = stat()
    guard stat(path, &a) == 0 else { return false }
    return ["", "-wal", "-journal", "-shm"].contains { suffix in
      stat(self.path + suffix, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
  }
}
