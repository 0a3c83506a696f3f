internal import CSQLite
import Foundation

/// One SQLite connection. Vital keeps one per process.
///
/// Opening applies the storage rules: WAL, `foreign_keys=ON`, a busy timeout and
/// `synchronous=NORMAL`. Statements are prepared once per SQL text and cached; the cache and
/// the handle are finalized and closed in `deinit`.
public final class Database {
  let handle: OpaquePointer
  /// The file path, or `:memory:`.
  public let path: String
  /// The sealing VFS this connection goes through, when the database is sealed at rest.
  let vfs: String?
  private var cache: [String: Statement] = [:]
  /// The statement used last: loops run the same SQL again and again, and comparing one string
  /// (often the same literal, so the same storage) is cheaper than hashing it.
  private var lastStatement: Statement?
  var transactionDepth = 0
  /// How long a statement waits for another connection's lock, as opened.
  let busyTimeoutMilliseconds: Int32
  /// Pages in the write-ahead log after the last commit, when checkpoints are deferred
  /// (`Database+Checkpoint`), and how many make one due.
  var loggedPages: Int32 = 0
  var deferredCheckpoint: (pages: Int32, limit: Int32)?
  /// What the layers above attach to this connection while work runs on it (the change a
  /// command is making, say), one value per type: Storage keeps them and never reads them.
  private var attachments: [ObjectIdentifier: any Sendable] = [:]

  public subscript<Value: Sendable>(attached type: Value.Type) -> Value? {
    get { attachments[ObjectIdentifier(type)] as? Value }
    set { attachments[ObjectIdentifier(type)] = newValue }
  }

  public struct Options: Sendable {
    public var readOnly = false
    public var create = true
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// Another program's file, read as it is: read-only, and SQLite told it cannot change, so it
    /// makes no -wal or -shm file beside it and takes no lock.
    public var immutable = false
    public init() {}
  }

  /// A path as a `file:` URI's path: the characters a URI gives meaning to, escaped.
  static func uriPath(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0...0x20, 0x7F...0xFF:
        out += String(format: "%%%02X", byte)
      default: out.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return out
  }

  /// Process-wide settings, applied once before the first connection (SQLite refuses them after).
  private static let configured: Int32 = csqlite_disable_memstatus()

  /// Opens (and by default creates) the database at `path`; `:memory:` gives a private one.
  /// A database sealed at rest opens only once its cipher is registered (`SealedPages`).
  public init(path: String, options: Options = Options()) throws {
    _ = Self.configured
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    flags |= options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
    if options.create && !options.readOnly { flags |= SQLITE_OPEN_CREATE }
    let vfs = options.immutable ? nil : SealedPages.vfsName(forDatabaseAt: path)
    if vfs != nil { _ = SealedPages.takeFailure() }
    var target = path
    if options.immutable {
      flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      target = "file:" + Self.uriPath(path) + "?mode=ro&immutable=1"
    }
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(target, &db, flags, vfs)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(db)
      // SQLite reads the start of page 1 while it opens a file: a sealed one may fail there.
      let damaged = StorageError.make(code: rc, message: message, sql: nil)
      if case .damagedPage = damaged { throw damaged }
      throw StorageError.cannotOpen(path: path, code: rc, message: message)
    }
    self.handle = db
    self.path = path
    self.busyTimeoutMilliseconds = options.busyTimeoutMilliseconds
    self.vfs = vfs
    do {
      sqlite3_extended_result_codes(db, 1)
      try check(sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds), sql: nil)
      if vfs != nil {
        // Each page keeps room for its seal, set before a new file's first write; and what
        // SQLite would put in temporary files (sorts, statement journals) stays in memory.
        var reserve = Int32(SealedPages.reserve)
        sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve)
        try execute("PRAGMA temp_store = MEMORY")
      }
      // The first read proves the file is a database before any pragma changes it.
      _ = try scalar(Int64.self, "SELECT count(*) FROM sqlite_schema")
      if !options.readOnly && !options.immutable && path != ":memory:" {
        _ = try scalar(String.self, "PRAGMA journal_mode=WAL")
      }
      try execute("PRAGMA foreign_keys=ON")
      try execute("PRAGMA synchronous=NORMAL")
      // 32 MiB of page cache (the default is 2 MiB): syncs and imports touch many pages at once.
      try execute("PRAGMA cache_size=-32768")
    } catch let error as StorageError {
      lastStatement = nil
      cache.removeAll()
      sqlite3_close_v2(db)
      if case .sqlite(let code, let message, _) = error {
        if vfs == nil && code & 0xFF == SQLITE_NOTADB && SealedPages.isSealed(fileAt: path) {
          throw StorageError.sealed(path: path)
        }
        throw StorageError.cannotOpen(path: path, code: code, message: message)
      }
      throw error
    }
  }

  /// A private in-memory database, for tests.
  public static func inMemory() throws -> Database {
    try Database(path: ":memory:")
  }

  deinit {
    lastStatement = nil
    cache.removeAll()  // finalizes every cached statement before the handle closes
    sqlite3_close_v2(handle)
  }

  /// The cached prepared statement for `sql`, reset: what was bound for one run (`bindUntilReset`)
  /// is cleared, what was bound with `bind(_:at:)` stays (a bulk insert binds its account once).
  public func statement(_ sql: String) throws -> Statement {
    if let last = lastStatement, last.sql == sql {
      last.reset()
      return last
    }
    if let cached = cache[sql] {
      lastStatement = cached
      cached.reset()
      return cached
    }
    let statement = try Statement(database: self, sql: sql)
    cache[sql] = statement
    lastStatement = statement
    return statement
  }

  /// A prepared statement of its own, not the cached one for `sql`: for a reader that stays on
  /// a row while other statements run, some of them with the same text (`statement(_:)` would
  /// reset it under the reader). Finalized when released.
  public func uncachedStatement(_ sql: String) throws -> Statement {
    try Statement(database: self, sql: sql)
  }

  /// Runs one statement with positional arguments; returns the number of rows it changed.
  @discardableResult
  public func execute(_ sql: String, _ arguments: (any DatabaseValueConvertible)?...) throws -> Int {
    try execute(sql, arguments: arguments)
  }

  @discardableResult
  public func execute(_ sql: String, arguments: [(any DatabaseValueConvertible)?]) throws -> Int {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    while try statement.step() {}
    return Int(sqlite3_changes64(handle))
  }

  /// The same for values already converted: no existential boxing per argument, for bulk writes.
  @discardableResult
  public func execute(_ sql: String, values: [DatabaseValue]) throws -> Int {
    let statement = try self.statement(sql)
    guard values.count == statement.parameterCount else {
      throw StorageError.argumentCount(expected: statement.parameterCount, got: values.count, sql: sql)
    }
    for (i, value) in values.enumerated() { try statement.bindUntilReset(value, at: Int32(i + 1)) }
    while try statement.step() {}
    return Int(sqlite3_changes64(handle))
  }

  /// Runs several statements separated by semicolons, without arguments (schema scripts).
  public func executeScript(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(handle, sql, nil, nil, &message)
    if rc != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
      sqlite3_free(message)
      throw StorageError.make(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
    }
  }

  /// Every row of a query, each turned into a value by `transform`.
  public func query<T>(
    _ sql: String, _ arguments: (any DatabaseValueConvertible)?...,
    row transform: (Row) throws -> T
  ) throws -> [T] {
    try query(sql, arguments: arguments, row: transform)
  }

  public func query<T>(
    _ sql: String, arguments: [(any DatabaseValueConvertible)?],
    row transform: (Row) throws -> T
  ) throws -> [T] {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    defer { statement.reset() }
    var result: [T] = []
    while try statement.step() {
      result.append(try transform(Row(statement: statement)))
    }
    return result
  }

  /// Calls `body` for each row without collecting them: for exports of many rows.
  public func forEachRow(
    _ sql: String, _ arguments: (any DatabaseValueConvertible)?..., body: (Row) throws -> Void
  ) throws {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    defer { statement.reset() }
    while try statement.step() { try body(Row(statement: statement)) }
  }

  /// Calls `body` for each row until it returns false: the rows after are never read.
  public func scanRows(
    _ sql: String, _ arguments: (any DatabaseValueConvertible)?..., while body: (Row) throws -> Bool
  ) throws {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    defer { statement.reset() }
    while try statement.step(), try body(Row(statement: statement)) {}
  }

  /// The first row of a query, or nil when there is none.
  public func queryFirst<T>(
    _ sql: String, _ arguments: (any DatabaseValueConvertible)?...,
    row transform: (Row) throws -> T
  ) throws -> T? {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    defer { statement.reset() }
    return try statement.step() ? transform(Row(statement: statement)) : nil
  }

  /// The first column of the first row; nil when there is no row or it holds NULL.
  public func scalar<T: DatabaseValueConvertible>(
    _ type: T.Type, _ sql: String, _ arguments: (any DatabaseValueConvertible)?...
  ) throws -> T? {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try Row(statement: statement).get(0, as: T?.self)
  }

  /// The rowid of the last successful INSERT on this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// The number of rows changed by the last INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes64(handle)) }

  /// Whether a transaction is open on this connection.
  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// The SQLite library version, e.g. "3.40.1".
  public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

  func check(_ rc: Int32, sql: String?) throws {
    guard rc != SQLITE_OK else { return }
    throw StorageError.make(code: sqlite3_extended_errcode(handle), message: errorMessage, sql: sql)
  }

  var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

extension StorageError {
  static func make(code: Int32, message: String, sql: String?) -> StorageError {
    // A sealed page that does not open is reported by the VFS as corruption, on this thread.
    if code & 0xFF == SQLITE_CORRUPT, let failure = SealedPages.takeFailure() {
      return .damagedPage(kind: failure.kind, position: failure.position)
    }
    return code & 0xFF == SQLITE_CONSTRAINT
      ? .constraint(code: code, message: message, sql: sql)
      : .sqlite(code: code, message: message, sql: sql)
  }
}
