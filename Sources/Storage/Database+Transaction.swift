extension Database {
  public enum TransactionKind: String, Sendable {
    case deferred = "DEFERRED"
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"
  }

  /// Runs `body` in a transaction: commits when it returns, rolls back and rethrows when it throws.
  ///
  /// Writes use IMMEDIATE by default so that two processes never deadlock upgrading a read lock.
  /// Called inside another transaction, it becomes a savepoint: an inner failure rolls back only
  /// the inner work, and the outer transaction decides whether the rest commits.
  @discardableResult
  public func transaction<T>(
    _ kind: TransactionKind = .immediate, _ body: (Database) throws -> T
  ) throws -> T {
    if transactionDepth > 0 { return try savepoint(body) }
    try execute("BEGIN \(kind.rawValue)")
    transactionDepth += 1
    defer { transactionDepth -= 1 }
    let result: T
    do {
      result = try body(self)
      try execute("COMMIT")
    } catch {
      // SQLite may already have rolled back (e.g. on SQLITE_FULL); a second ROLLBACK would fail.
      if isInTransaction { _ = try? execute("ROLLBACK") }
      throw error
    }
    return result
  }

  /// Runs `body`, which commits what someone is about to be told is stored, with
  /// `synchronous=FULL` when `durable`: in WAL mode NORMAL makes a commit last through a power
  /// cut only at the next checkpoint. Between transactions only (SQLite refuses the switch
  /// inside one): inside a transaction `body` runs as it is.
  public func durably<T>(when durable: Bool = true, _ body: () throws -> T) throws -> T {
    guard durable, !isInTransaction else { return try body() }
    try execute("PRAGMA synchronous=FULL")
    defer { _ = try? execute("PRAGMA synchronous=NORMAL") }
    return try body()
  }

  /// Runs `body` in a transaction of its own, or, inside one already, as part of it: without a
  /// savepoint, whose journal a bulk write of millions of rows would fill for nothing when the
  /// caller undoes everything on a failure anyway.
  @discardableResult
  public func transactionOrPart<T>(_ body: (Database) throws -> T) throws -> T {
    transactionDepth > 0 ? try body(self) : try transaction(.immediate, body)
  }

  private func savepoint<T>(_ body: (Database) throws -> T) throws -> T {
    let name = "vital_sp\(transactionDepth)"
    try execute("SAVEPOINT \(name)")
    transactionDepth += 1
    defer { transactionDepth -= 1 }
    do {
      let result = try body(self)
      try execute("RELEASE \(name)")
      return result
    } catch {
      if isInTransaction {
        _ = try? execute("ROLLBACK TO \(name)")
        _ = try? execute("RELEASE \(name)")
      }
      throw error
    }
  }

  /// Statement and savepoint journals in memory instead of temporary files, for a transaction
  /// that writes millions of rows in batches (an import): each batch's savepoint otherwise
  /// writes every page it touches to a file first, several times the database's own writes.
  /// These journals hold the pages of one batch, not of the whole transaction.
  public func keepJournalsInMemory() throws {
    try execute("PRAGMA temp_store = MEMORY")
  }
}
