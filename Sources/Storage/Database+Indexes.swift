extension Database {
  /// The indexes made by CREATE INDEX on `table`, in the order they were made, each with the
  /// statement that makes it again; not those that keys and UNIQUE constraints make, which
  /// cannot be dropped.
  public func createdIndexes(on table: String) throws -> [(name: String, sql: String)] {
    try query(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY rowid",
      table
    ) { (try $0.get(0, as: String.self), try $0.get(1, as: String.self)) }
  }

  /// Whether an index named `name` exists.
  public func hasIndex(named name: String) throws -> Bool {
    try scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?", name) == 1
  }

  public func dropIndex(_ name: String) throws {
    try execute("DROP INDEX \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
  }
}
