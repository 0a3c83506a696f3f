import Core
import Replication
import Storage

// The column kinds of Vital's own values (days), which Replication knows nothing of.
extension RecordShape.Column {
  /// A day, `YYYY-MM-DD`, always there; a record whose day does not pass its rule is left out.
  @inlinable public static func day(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, LocalDate>,
    years: ClosedRange<Int>,
    onFault fault: Fault = .skipsRecord
  ) -> Self {
    .init(
      name, "TEXT NOT NULL", rule: .day(years: years), onFault: fault, keyPath(), write: { .text($0.description) },
      read: { value in String.fromDatabaseValue(value).flatMap(LocalDate.init) })
  }

  /// A day that may be missing; one that does not pass its rule reads as missing.
  @inlinable public static func day(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, LocalDate?>,
    years: ClosedRange<Int>
  ) -> Self {
    .init(
      name, "TEXT", rule: .day(years: years), onFault: .missing, keyPath(),
      write: { $0?.description.databaseValue ?? .null },
      read: { value in value == .null ? .some(nil) : String.fromDatabaseValue(value).flatMap(LocalDate.init) })
  }
}

extension RecordShape {
  /// The columns of a table of one account's records: the shape's, the owning account after the
  /// id, and the table's `own` columns (a write stamp) each after the column it names.
  public func accountTableColumns(adding own: [(after: String, Table.Column)] = []) -> [Table.Column] {
    tableColumns(
      adding: [(after: "id", .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"))] + own)
  }
}
