extension Database {
  /// An index as `sqlite_schema` holds it: the statement that creates it again.
  public struct CreatedIndex: Sendable, Hashable {
    public let name: String
    public let sql: String

    public init(name: String, sql: String) {
      self.name = name
      self.sql = sql
    }
  }

  /// The indexes made by CREATE INDEX on `table`, in the order they were made; not those that
  /// keys and UNIQUE constraints make, which cannot be dropped.
  public func createdIndexes(on table: String) throws -> [CreatedIndex] {
    try query(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY rowid",
      table
    ) { CreatedIndex(name: try $0.get(0, as: String.self), sql: try $0.get(1, as: String.self)) }
  }

  /// Whether an index named `name` exists.
  public func hasIndex(named name: String) throws -> Bool {
    try scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?", name) == 1
  }

  public func dropIndex(_ name: String) throws {
    try execute("DROP INDEX \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
  }
}
