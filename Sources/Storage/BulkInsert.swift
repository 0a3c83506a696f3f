/// Rows inserted into one table many per statement, the columns every row shares a value of (an
/// account) bound once per statement: per row only its own values are bound. A bulk insert of
/// random keys spends most of its time in SQLite; what is left is binding, and a third of that
/// was binding the same account to every row.
public struct BulkInsert {
  private let db: Database
  private let head: String
  private let tail: String
  private let fixed: [DatabaseValue]
  private let varying: Int
  /// The statement for `rows` rows, prepared on its first use; others are prepared as needed.
  private let rows: Int
  private var full: Statement?

  /// `fixed` names the columns with one value for all rows, `varying` those each row binds;
  /// `then` follows the rows (an `ON CONFLICT` clause).
  public init(
    _ db: Database, table: String, fixed: [(column: String, value: DatabaseValue)], varying: [String], rows: Int,
    then tail: String = ""
  ) {
    self.db = db
    self.head =
      "INSERT INTO \(table) (" + (fixed.map(\.column) + varying).map { "\"\($0)\"" }.joined(separator: ", ")
      + ") VALUES "
    self.tail = tail.isEmpty ? "" : " " + tail
    self.fixed = fixed.map(\.value)
    self.varying = varying.count
    self.rows = rows
  }

  /// Inserts `count` rows, the value of row `slot`'s varying column `column` being
  /// `value(slot, column)`. A row that breaks a constraint fails the statement, which then wrote
  /// nothing (`StorageError` with SQLite's code).
  public mutating func insert(_ count: Int, _ value: (_ slot: Int, _ column: Int) -> DatabaseValue) throws {
    guard count > 0 else { return }
    let statement: Statement
    if count == rows, let full {
      statement = full
      statement.reset()
    } else {
      statement = try db.statement(head + (0..<count).map(tuple).joined(separator: ", ") + tail)
      for (index, value) in fixed.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
      if count == rows { full = statement }
    }
    for slot in 0..<count {
      let first = fixed.count + 1 + slot * varying
      for column in 0..<varying { try statement.bindUntilReset(value(slot, column), at: Int32(first + column)) }
    }
    while try statement.step() {}
  }

  /// The parameters of row `slot`: the fixed ones first, by number, then its own.
  private func tuple(_ slot: Int) -> String {
    let first = fixed.count + 1 + slot * varying
    return "("
      + (Array(1..<fixed.count + 1) + Array(first..<first + varying)).map { "?\($0)" }
      .joined(separator: ", ") + ")"
  }
}
