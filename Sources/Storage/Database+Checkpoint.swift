internal import CSQLite
import Foundation

extension Database {
  /// Takes the copying of the write-ahead log into the database out of the commit that fills
  /// the log: `checkpointIfDue()` does it later, once the caller has answered whoever waited for
  /// that commit. A commit that leaves `limit` pages or more in the log still copies it at once,
  /// so the log stays bounded when nobody calls.
  public func deferCheckpoints(after pages: Int32, limit: Int32) {
    deferredCheckpoint = (pages, limit)
    // The hook replaces SQLite's automatic checkpoint, which is one such hook.
    sqlite3_wal_hook(
      handle,
      { context, db, name, pages in
        guard let context else { return SQLITE_OK }
        let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
        database.loggedPages = pages
        if let limit = database.deferredCheckpoint?.limit, pages >= limit {
          sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
          database.loggedPages = 0
        }
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Whether the commits since the last copy left the pages given to `deferCheckpoints`.
  public var isCheckpointDue: Bool { deferredCheckpoint.map { loggedPages >= $0.pages } ?? false }

  /// Copies the log into the database when the commits since the last copy left at least the
  /// pages given to `deferCheckpoints`. Passive: a reader in the middle of the log stops it
  /// there, and a later call goes on.
  public func checkpointIfDue() throws {
    guard isCheckpointDue else { return }
    loggedPages = 0
    try check(sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil), sql: nil)
  }
}
