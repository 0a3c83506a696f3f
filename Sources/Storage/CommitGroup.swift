/// Writes that would each be a transaction, committed together: the group commits once it holds
/// `rowsPerCommit` rows or has been open `secondsOpen`, or when told to, and a write that fails
/// rolls back everything since the last commit. Every write must leave the database as a
/// transaction of its own would, so that committing after any of them, or losing all since the
/// last commit, leaves a state the database would have been in anyway.
///
/// For many writes of rows with random keys (a first sync of records imported elsewhere): each
/// commit writes every page it dirtied to the log, and a few thousand random keys dirty most
/// pages of every index they go into. Committed every 2,500 rows, 100,000 such rows took three
/// times as long as in one transaction.
///
/// Other transactions on the connection while the group is open become savepoints of it, and
/// commit with it.
public final class CommitGroup {
  public let db: Database
  public let rowsPerCommit: Int
  /// How long the group's transaction may stay open: a write after that commits. Other
  /// connections' writes wait for the commit, the time their busy timeout allows.
  public let secondsOpen: Double
  private var rows = 0
  private var opened: ContinuousClock.Instant?

  public init(_ db: Database, rowsPerCommit: Int, secondsOpen: Double = .infinity) {
    self.db = db
    self.rowsPerCommit = rowsPerCommit
    self.secondsOpen = secondsOpen
  }

  private var isOpen: Bool { opened != nil }

  /// Runs `body`, which writes `count` rows, as part of the group: opens its transaction when
  /// none is open, and commits it when it holds enough rows or has been open long enough. When
  /// `body` throws, the group's transaction is rolled back: what was committed before stays.
  @discardableResult
  public func write<T>(rows count: Int, _ body: (Database) throws -> T) throws -> T {
    // Inside a transaction someone else opened, that one decides when all of it commits.
    if !isOpen, db.transactionDepth > 0 { return try db.transaction(.immediate, body) }
    if !isOpen {
      try db.execute("BEGIN IMMEDIATE")
      db.transactionDepth += 1
      opened = .now
    }
    let result: T
    do {
      // Not a savepoint of its own: that journals the first state of every page the write
      // touches, most of the tables again for random keys, which made a first sync slower
      // than committing each write did.
      result = try body(db)
    } catch {
      rollBack()
      throw error
    }
    rows += count
    let expired = secondsOpen.isFinite && opened.map { $0.duration(to: .now) >= .seconds(secondsOpen) } == true
    if rows >= rowsPerCommit || expired { try commit() }
    return result
  }

  /// Drops what the group holds.
  public func rollBack() {
    guard isOpen else { return }
    closed()
    if db.isInTransaction { _ = try? db.execute("ROLLBACK") }
  }

  /// Commits what the group holds; nothing when it holds nothing.
  public func commit() throws {
    guard isOpen else { return }
    closed()
    do {
      try db.execute("COMMIT")
    } catch {
      if db.isInTransaction { _ = try? db.execute("ROLLBACK") }
      throw error
    }
  }

  private func closed() {
    opened = nil
    rows = 0
    db.transactionDepth -= 1
  }
}
