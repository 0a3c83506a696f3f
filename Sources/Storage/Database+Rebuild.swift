extension Database {
  /// Gives `table` the shape its description has now, keeping its rows: SQLite cannot change a
  /// primary key in place. The old table is renamed aside (its indexes dropped first, so their
  /// names are free), the new one created from the description and filled from the columns
  /// both have, then the old one dropped. Run inside a transaction (a migration is one).
  public func rebuild(_ table: Table) throws {
    let aside = "\(table.name)_before_rebuild"
    let indexes = try query(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", table.name
    ) { try $0.get(0, as: String.self) }
    for index in indexes { try execute("DROP INDEX \(index)") }
    let existing = Set(
      try query("SELECT name FROM pragma_table_info(?)", table.name) { try $0.get(0, as: String.self) })
    try execute("ALTER TABLE \(table.name) RENAME TO \(aside)")
    try executeScript(table.createStatements[0])
    let shared = table.list(table.columnNames.filter(existing.contains))
    try execute("INSERT INTO \(table.name) (\(shared)) SELECT \(shared) FROM \(aside)")
    try execute("DROP TABLE \(aside)")
    for statement in table.createStatements.dropFirst() { try execute(statement) }
  }
}

extension Migration {
  /// A migration that rebuilds `tables` from their descriptions (`Database.rebuild`).
  public init(_ name: String, rebuilding tables: [Table]) {
    self.init(name) { db in
      for table in tables { try db.rebuild(table) }
    }
  }
}
