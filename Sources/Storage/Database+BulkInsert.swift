internal import CSQLite

extension Database {
  /// Runs `body`, a bulk insert into `table`, with the table's own indexes dropped, and builds
  /// them again after it: for many rows in an order an index does not follow, one sort at the
  /// end writes each of its pages once, where inserting into it row by row touches a random
  /// page each time. The indexes that keys and UNIQUE constraints make stay.
  ///
  /// Inside a transaction, so that other connections never see the table without them; when
  /// `body` fails they are built again all the same.
  public func withIndexesBuiltAfter<T>(on table: String, _ body: () throws -> T) throws -> T {
    precondition(isInTransaction, "indexes are dropped for a bulk insert only inside a transaction")
    let indexes = try createdIndexes(on: table)
    for index in indexes { try dropIndex(index.name) }
    let result: T
    do {
      result = try body()
    } catch {
      for index in indexes { _ = try? execute(index.sql) }
      throw error
    }
    for index in indexes { try execute(index.sql) }
    return result
  }
}

extension Database {
  /// Runs `body`, a bulk write, with a rollback journal instead of the write-ahead log when no
  /// other connection has the database open. Through the log every page is written twice, into
  /// the log and then into the database at the checkpoint; a journal holds only the pages that
  /// held something before, and a load into new pages changes few of those.
  ///
  /// With another connection open the switch fails at once (no waiting for it) and `body` runs
  /// in the log as usual. While `body` runs, another connection that wants to read waits for the
  /// commit, as a writer would in any mode. The log is back after, also when `body` fails; if
  /// another connection holds the database past the busy timeout then, the next open brings it
  /// back (every open asks for WAL). Inside a transaction `body` runs as it is: the mode changes
  /// only between transactions.
  public func withRollbackJournal<T>(_ body: () throws -> T) throws -> T {
    guard !isInTransaction, try scalar(String.self, "PRAGMA journal_mode") == "wal" else { return try body() }
    sqlite3_busy_timeout(handle, 0)
    let switched = (try? scalar(String.self, "PRAGMA journal_mode=DELETE")) == "delete"
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    guard switched else { return try body() }
    defer {
      _ = try? execute("PRAGMA synchronous=NORMAL")
      _ = try? scalar(String.self, "PRAGMA journal_mode=WAL")
    }
    // With a rollback journal NORMAL can lose the database to a power cut at the wrong moment;
    // FULL cannot, and costs one more sync of a journal that holds almost nothing here.
    try execute("PRAGMA synchronous=FULL")
    return try body()
  }
}
