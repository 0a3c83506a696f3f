/// Everything Storage can throw.
///
/// Messages carry the SQLite result code and the SQL text, never bound values: those are
/// health data and must not reach logs or a terminal.
public enum StorageError: Error, Equatable, Sendable {
  /// A failed SQLite call. `code` is the extended result code.
  case sqlite(code: Int32, message: String, sql: String?)
  /// A constraint failed (UNIQUE, CHECK, FOREIGN KEY, NOT NULL, STRICT type).
  case constraint(code: Int32, message: String, sql: String?)
  /// The database could not be opened or is not a database at all.
  case cannotOpen(path: String, code: Int32, message: String)
  /// The file was written by a newer Vital: it is left untouched.
  case newerSchema(found: Int, supported: Int)
  /// A migration failed; the database stays at the version before it.
  case migrationFailed(name: String, reason: String)
  /// A column held a value that cannot be read as the requested type.
  case typeMismatch(column: String, expected: String, sql: String?)
  /// A column name or index that the statement does not have.
  case noSuchColumn(String, sql: String?)
  /// More or fewer arguments than the statement has parameters.
  case argumentCount(expected: Int, got: Int, sql: String?)
  /// A backup could not be written.
  case backupFailed(path: String, reason: String)
  /// The database is sealed at rest and this process has not registered its cipher.
  case sealed(path: String)
  /// A page of a sealed database did not open: changed on the disk, cut short, or sealed with
  /// another key. `position` is the page number in the database, else the byte offset.
  case damagedPage(kind: SealedPages.FileKind, position: Int64)

  /// The SQLite extended result code, where there is one.
  public var code: Int32? {
    switch self {
    case .sqlite(let code, _, _), .constraint(let code, _, _), .cannotOpen(_, let code, _):
      return code
    default:
      return nil
    }
  }

  /// The primary SQLite result code (the low byte of the extended code).
  public var primaryCode: Int32? { code.map { $0 & 0xFF } }

  public var sql: String? {
    switch self {
    case .sqlite(_, _, let sql), .constraint(_, _, let sql), .typeMismatch(_, _, let sql),
      .noSuchColumn(_, let sql), .argumentCount(_, _, let sql):
      return sql
    default:
      return nil
    }
  }
}

extension StorageError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .sqlite(let code, let message, let sql) where code & 0xFF == Self.corrupt:
      return "database error \(code): \(message)\(Self.context(sql)): the file is damaged; run 'vital db check'"
    case .sqlite(let code, let message, let sql):
      return "database error \(code): \(message)\(Self.context(sql))"
    case .constraint(let code, let message, let sql):
      return "constraint failed (\(code)): \(message)\(Self.context(sql))"
    case .cannotOpen(let path, let code, let message) where code & 0xFF == Self.corrupt:
      return
        "cannot open database '\(path)': the file is damaged (\(message): cut short, or changed on the disk); run 'vital db check', and restore a backup made with 'vital db backup'"
    case .cannotOpen(let path, let code, let message):
      return "cannot open database '\(path)' (\(code)): \(message)"
    case .newerSchema(let found, let supported):
      return
        "this database was written by a newer version of Vital (schema \(found), this version knows \(supported)); upgrade Vital to open it"
    case .migrationFailed(let name, let reason):
      return "migration \(name) failed and was rolled back: \(reason)"
    case .typeMismatch(let column, let expected, let sql):
      return "column \(column) does not hold \(expected)\(Self.context(sql))"
    case .noSuchColumn(let column, let sql):
      return "no column \(column)\(Self.context(sql))"
    case .argumentCount(let expected, let got, let sql):
      return "statement takes \(expected) arguments, got \(got)\(Self.context(sql))"
    case .backupFailed(let path, let reason):
      return "backup to '\(path)' failed: \(reason)"
    case .sealed(let path):
      return "the database '\(path)' is encrypted and this command has not unlocked it"
    case .damagedPage(.database, let page):
      return "the database file is damaged at page \(page): it does not open with its key; run 'vital db check'"
    case .damagedPage(.log, let offset):
      let frame = (offset - 32) / Int64(24 + SealedPages.pageSize) + 1
      return "the database's write-ahead log is damaged at frame \(frame): it does not open with its key"
    case .damagedPage(.journal, let offset):
      return "the database's rollback journal is damaged at byte \(offset): it does not open with its key"
    }
  }

  /// The description without the SQL text: what a person at a terminal is shown. The statement
  /// helps whoever reads a log or a test failure, not someone whose import failed.
  public var withoutSQL: String {
    switch self {
    case .sqlite(let code, let message, _):
      return StorageError.sqlite(code: code, message: message, sql: nil).description
    case .constraint(let code, let message, _):
      return StorageError.constraint(code: code, message: message, sql: nil).description
    case .typeMismatch(let column, let expected, _):
      return StorageError.typeMismatch(column: column, expected: expected, sql: nil).description
    case .noSuchColumn(let column, _): return StorageError.noSuchColumn(column, sql: nil).description
    case .argumentCount(let expected, let got, _):
      return StorageError.argumentCount(expected: expected, got: got, sql: nil).description
    default: return description
    }
  }

  /// SQLITE_CORRUPT: what SQLite reads does not hang together (the file is damaged).
  public static let corrupt: Int32 = 11

  private static func context(_ sql: String?) -> String {
    guard let sql else { return "" }
    let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return " in \"\(flat.count > 120 ? flat.prefix(117) + "..." : flat)\""
  }
}
