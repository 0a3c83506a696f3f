extension Database {
  /// Gives table `name` the shape `sql` creates (its `CREATE TABLE` and `CREATE INDEX`
  /// statements), keeping its rows: SQLite cannot change a primary key in place. The old table is
  /// renamed aside (its indexes dropped first, so their names are free), the new one created and
  /// filled from the columns both have, then the old one dropped and the indexes made over the
  /// filled table. Run inside a transaction (a migration is one).
  public func rebuild(_ name: String, as sql: String) throws {
    let aside = "\(name)_before_rebuild"
    for index in try createdIndexes(on: name) { try dropIndex(index.name) }
    let existing = Set(try columns(of: name))
    try execute("ALTER TABLE \(name) RENAME TO \(aside)")
    try executeScript(sql)
    // Indexes are cheaper made once over the rows than kept up while they go in.
    let indexes = try createdIndexes(on: name)
    for index in indexes { try dropIndex(index.name) }
    let shared = try columns(of: name).filter(existing.contains).map { "\"\($0)\"" }.joined(separator: ", ")
    try execute("INSERT INTO \(name) (\(shared)) SELECT \(shared) FROM \(aside)")
    try execute("DROP TABLE \(aside)")
    for index in indexes { try execute(index.sql) }
  }

  /// Gives `table` the shape its description has now (`rebuild(_:as:)`).
  public func rebuild(_ table: Table) throws {
    try rebuild(table.name, as: table.createStatements.joined(separator: "\n"))
  }

  private func columns(of table: String) throws -> [String] {
    try query("SELECT name FROM pragma_table_info(?)", table) { try $0.get(0, as: String.self) }
  }
}

extension Migration {
  /// A migration that rebuilds each table to the shape its SQL creates (`Database.rebuild`), in
  /// order, after running `creating`.
  public init(_ name: String, creating sql: String = "", rebuilding tables: KeyValuePairs<String, String>) {
    self.init(name) { db in
      if !sql.isEmpty { try db.executeScript(sql) }
      for (table, sql) in tables { try db.rebuild(table, as: sql) }
    }
  }

  /// A migration that rebuilds `tables` from their descriptions (`Database.rebuild`).
  public init(_ name: String, rebuilding tables: [Table]) {
    self.init(name) { db in
      for table in tables { try db.rebuild(table) }
    }
  }

  /// This migration, then `body` in the same transaction: a data step after the DDL.
  public func then(_ body: @escaping @Sendable (Database) throws -> Void) -> Migration {
    let apply = self.apply
    return Migration(name) { db in
      try apply(db)
      try body(db)
    }
  }
}
