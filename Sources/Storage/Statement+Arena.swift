internal import CSQLite

extension Statement {
  /// Binds `value` at `index` for the next run only: after `reset()` the parameter is NULL until
  /// bound again. Text and blobs up to `BindArena.largest` bytes are copied into memory the
  /// statement keeps for this, where `bind` has SQLite allocate a copy of each one and free it
  /// at the next bind. A bulk insert binds millions of values, and those allocations, freed
  /// among SQLite's page allocations, cost an import of 100,000 rows a tenth of its time.
  public func bindUntilReset(_ value: DatabaseValue, at index: Int32) throws {
    let rc: Int32?
    switch value {
    case .null, .integer, .real:
      rc = nil
    case .text(let text):
      // Read in place: `withUTF8` needs a mutable copy of the string, one retain and release more.
      rc =
        text.utf8.withContiguousStorageIfAvailable { bytes in
          arena.copy(UnsafeRawBufferPointer(bytes)).map {
            sqlite3_bind_text64(
              handle, index, $0.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
          }
        } ?? nil
    case .blob(let data):
      rc = data.withUnsafeBytes { bytes in
        arena.copy(bytes).map { sqlite3_bind_blob64(handle, index, $0, UInt64(bytes.count), nil) }
      }
    }
    // Not copied (a number, empty, too large) or refused: `bind` binds it or says why not.
    guard rc == SQLITE_OK else { return try bind(value, at: index) }
    arena.noteCopied(index)
  }

  /// Unbinds the parameters bound to copies, so that none points at memory the next run
  /// reuses, and readies the copies' memory for it.
  func resetArena() {
    arena.reuse { sqlite3_bind_null(handle, $0) }
  }
}
