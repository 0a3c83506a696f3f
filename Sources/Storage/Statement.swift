internal import CSQLite
import Foundation

/// A prepared statement, owned by the `Database` that caches it and finalized in `deinit`.
public final class Statement {
  let handle: OpaquePointer
  private let db: OpaquePointer
  public let sql: String
  private lazy var columnIndexes: [String: Int32] = {
    var map: [String: Int32] = [:]
    for i in 0..<sqlite3_column_count(handle) {
      map[String(cString: sqlite3_column_name(handle, i)).lowercased()] = i
    }
    return map
  }()
  /// The columns' names as the statement gives them, when no two are the same but for case.
  /// A record reads its columns in the order it selected them, so a scan from the column after
  /// the one found last is one comparison of short strings, where hashing the name cost hundreds
  /// of instructions for every value of every row.
  private lazy var uniqueColumnNames: [String]? = {
    let names = (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    return Set(names.map { $0.lowercased() }).count == names.count ? names : nil
  }()
  private var nextColumn = 0
  /// Where `bindUntilReset` copies text and blobs, and which parameters point into it.
  /// Unchecked: a statement is used by one thread, and only its own methods touch the arena, none
  /// while another has it; the checks cost a bulk insert two calls into the runtime per value.
  @exclusivity(unchecked) var arena = BindArena()

  init(database: Database, sql: String) throws {
    // The tail pointer points into the C string, so it is read while that string is alive.
    let (rc, prepared, trailing) = sql.withCString { text -> (Int32, OpaquePointer?, Bool) in
      var statement: OpaquePointer?
      var tail: UnsafePointer<CChar>?
      let rc = sqlite3_prepare_v3(database.handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
      let trailing =
        tail.map { $0.pointee != 0 && !String(cString: $0).allSatisfy({ $0.isWhitespace || $0 == ";" }) } ?? false
      return (rc, statement, trailing)
    }
    guard rc == SQLITE_OK, let statement = prepared else {
      throw StorageError.make(code: sqlite3_extended_errcode(database.handle), message: database.errorMessage, sql: sql)
    }
    // A second statement after the first would be silently ignored: refuse it instead.
    if trailing {
      sqlite3_finalize(statement)
      throw StorageError.sqlite(
        code: SQLITE_MISUSE, message: "more than one statement; use executeScript", sql: sql)
    }
    self.handle = statement
    self.db = database.handle
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
    arena.deallocate()
  }

  public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

  /// Binds every parameter, for the next run (`bindUntilReset`).
  public func bind(_ arguments: [(any DatabaseValueConvertible)?]) throws {
    guard arguments.count == parameterCount else {
      throw StorageError.argumentCount(expected: parameterCount, got: arguments.count, sql: sql)
    }
    for (i, argument) in arguments.enumerated() {
      try bindUntilReset(argument?.databaseValue ?? .null, at: Int32(i + 1))
    }
  }

  public func bind(_ value: DatabaseValue, at index: Int32) throws {
    let rc: Int32
    switch value {
    case .null:
      rc = sqlite3_bind_null(handle, index)
    case .integer(let v):
      rc = sqlite3_bind_int64(handle, index, v)
    case .real(let v):
      rc = sqlite3_bind_double(handle, index, v)
    case .text(var s):
      rc = s.withUTF8 { buffer in
        // An empty buffer may have no base address, which SQLite would read as NULL.
        guard let base = buffer.baseAddress, buffer.count > 0 else {
          return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
        }
        return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
          sqlite3_bind_text64(handle, index, $0, UInt64(buffer.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
      }
    case .blob(let data):
      rc = data.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress, buffer.count > 0 else {
          return sqlite3_bind_zeroblob(handle, index, 0)
        }
        return sqlite3_bind_blob64(handle, index, base, UInt64(buffer.count), csqlite_transient())
      }
    }
    try check(rc)
  }

  /// Advances one row: true while there is a row to read, false when done.
  public func step() throws -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let code = sqlite3_extended_errcode(db)
      let message = String(cString: sqlite3_errmsg(db))
      sqlite3_reset(handle)
      throw StorageError.make(code: code, message: message, sql: sql)
    }
  }

  /// Runs the statement to completion with the given arguments.
  public func execute(_ arguments: [(any DatabaseValueConvertible)?]) throws {
    try bind(arguments)
    defer { reset() }
    while try step() {}
  }

  /// The row `step()` stopped on, for a statement stepped by hand (`RETURNING` in a bulk write).
  public var row: Row { Row(statement: self) }

  /// Readies the statement to run again. Values bound with `bind(_:at:)` stay until rebound: a
  /// bulk insert binds what stays the same once and rebinds only what changes. A parameter bound
  /// for one run (`bindUntilReset`, and so `bind(_:)`), even if bound again with `bind(_:at:)`
  /// since, is NULL until bound again.
  public func reset() {
    sqlite3_reset(handle)
    if arena.inUse { resetArena() }
  }

  /// Reads a TEXT column's bytes without making a String (nil for NULL). The buffer is valid only
  /// inside `body`: for exports that copy bytes straight to their output.
  func withUTF8<T>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
    // NULL is the one value whose text is no pointer (empty text has one), and asking the type
    // first was a tenth of an export's reading.
    guard let text = sqlite3_column_text(handle, index) else {
      // The other way to get no pointer: a number made into text with no memory left for it.
      precondition(sqlite3_column_type(handle, index) == SQLITE_NULL, "SQLite is out of memory")
      return try body(nil)
    }
    return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
  }

  var columnCount: Int32 { sqlite3_column_count(handle) }

  func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }

  func columnIndex(_ name: String) -> Int32? {
    if let names = uniqueColumnNames {
      var index = nextColumn < names.count ? nextColumn : 0
      for _ in names.indices {
        if names[index] == name {
          nextColumn = index + 1
          return Int32(index)
        }
        index = index + 1 == names.count ? 0 : index + 1
      }
    }
    return columnIndexes[name] ?? columnIndexes[name.lowercased()]
  }

  func value(at index: Int32) -> DatabaseValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(handle, index))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(handle, index))
      guard let text = sqlite3_column_text(handle, index) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, index))
      guard let blob = sqlite3_column_blob(handle, index), count > 0 else { return .blob(Data()) }
      return .blob(Data(bytes: blob, count: count))
    default:
      return .null
    }
  }

  private func check(_ rc: Int32) throws {
    guard rc != SQLITE_OK else { return }
    throw StorageError.make(code: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)), sql: sql)
  }
}

/// The current row of a statement; valid only inside the closure that receives it.
public struct Row {
  let statement: Statement

  public var count: Int { Int(statement.columnCount) }

  public subscript(index: Int) -> DatabaseValue { statement.value(at: Int32(index)) }

  /// The column named `name` as it is stored, whatever its type; NULL when there is no such column.
  public subscript(name: String) -> DatabaseValue {
    statement.columnIndex(name).map { statement.value(at: $0) } ?? .null
  }

  /// The column at `index` as `T`; reading NULL as a non-optional type is an error.
  public func get<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
    guard index >= 0, index < count else {
      throw StorageError.noSuchColumn(String(index), sql: statement.sql)
    }
    let value = statement.value(at: Int32(index))
    guard let result = T.fromDatabaseValue(value) else {
      throw StorageError.typeMismatch(
        column: statement.columnName(Int32(index)), expected: String(describing: T.self), sql: statement.sql)
    }
    return result
  }

  /// A column's text as raw UTF-8 bytes, without making a String; nil for NULL.
  public func withUTF8<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
    try statement.withUTF8(Int32(index), body)
  }

  /// The column's text, or `previous` itself when its bytes are the same: rows that repeat a
  /// value (a record's id over its fields) then share one String instead of making one each.
  public func text(_ index: Int, sameAs previous: String?) throws -> String {
    if var previous {
      let same = withUTF8(index) { bytes in
        bytes.map { bytes in
          previous.withUTF8 { text in
            text.count == bytes.count
              && (text.isEmpty || memcmp(text.baseAddress!, bytes.baseAddress!, text.count) == 0)
          }
        } ?? false
      }
      if same { return previous }
    }
    return try get(index)
  }

  /// The column named `name` (case-insensitive) as `T`.
  public func get<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
    guard let index = statement.columnIndex(name) else {
      throw StorageError.noSuchColumn(name, sql: statement.sql)
    }
    return try get(Int(index), as: type)
  }
}
