import Storage

/// A table whose rows sync: its key column and the fields that travel, taken from the table's
/// description. Every other column is local: the owning account, a write stamp, blob bytes that
/// travel on their own.
public struct Dataset: Hashable, Sendable {
  public let name: String
  public let table: String
  public let key: String
  /// The synced columns, in the table's order: bulk inserts take values in this order.
  public let fields: [String]
  /// Columns kept on this device only (blob bytes that travel on their own), neither key, owner
  /// nor stamp.
  public let local: [String]
  /// A column set to the write time on every local or remote write, if the table has one.
  let stamp: String?
  /// For rows that cover a stretch of time: the columns holding its start and end (UTC ISO 8601
  /// text). Every write then notes the UTC days it touched (`Replica.changedDays`), so a cache
  /// derived from the rows recomputes those days and no others, whoever wrote them.
  public let span: Span?

  public struct Span: Hashable, Sendable {
    public let start: String
    public let end: String

    public init(start: String, end: String) {
      self.start = start
      self.end = end
    }
  }

  /// The dataset of `table`: every column syncs except `key`, `account_id`, `stamp` and `local`.
  public init(_ table: Table, key: String = "id", stamp: String? = nil, local: [String] = [], span: Span? = nil) {
    let names = table.columnNames
    precondition(names.contains(key) && names.contains("account_id"), "\(table.name) needs \(key) and account_id")
    precondition(
      (local + [stamp].compactMap { $0 } + [span?.start, span?.end].compactMap { $0 }).allSatisfy(names.contains),
      "\(table.name): unknown local or span column")
    let notSynced = Set([key, "account_id"] + local + [stamp].compactMap { $0 })
    self.name = table.name
    self.table = table.name
    self.key = key
    self.fields = names.filter { !notSynced.contains($0) }
    self.local = local
    self.stamp = stamp
    self.span = span
  }
}

extension Array where Element == Dataset {
  public func named(_ name: String) -> Dataset? { first { $0.name == name } }
}
