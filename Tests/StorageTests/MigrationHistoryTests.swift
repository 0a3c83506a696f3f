import Foundation
import Schema
import Storage
import Testing

/// Migrations hold the DDL they shipped with, so a home made by any older release and a home made
/// today must end up alike; and today's table descriptions, which stores read and write by, must
/// be what the migrations build.
@Suite struct MigrationHistoryTests {
  static let migrations = VitalSchema.migrator.migrations

  /// Every table a fresh database has is described once in the code, as SQLite keeps it: a
  /// description changed without a migration fails here.
  @Test func todaysDescriptionsAreWhatTheMigrationsBuild() throws {
    let db = try Database.inMemory()
    try VitalSchema.migrator.migrate(db)
    let described = Dictionary(grouping: VitalSchema.tables, by: \.name)
    #expect(described.values.allSatisfy { $0.count == 1 }, "a table is described twice")
    for name in try Self.tables(db) where !["schema_migration", "area_box"].contains(name) {
      guard let table = described[name]?.first else {
        Issue.record("\(name) has no description in VitalSchema.tables")
        continue
      }
      let stored = try db.query(
        "SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type DESC, name", name
      ) { try $0.get(0, as: String.self) + ";" }
      let built = [table.createStatements[0]] + table.createStatements.dropFirst().sorted()
      #expect(stored == built, "\(name) as described differs from \(name) as migrated: add a migration")
    }
    #expect(Set(described.keys).subtracting(try Self.tables(db)).isEmpty, "a described table no migration makes")
  }

  /// For each older release (the first k migrations): a home made by it and filled, then brought
  /// up to date, equals a home made today and filled with the same rows, table by table and row
  /// by row.
  @Test(arguments: 1..<migrations.count)
  func anOlderHomeMigratedEqualsAFreshOne(releasedWith k: Int) throws {
    let old = try Database.inMemory()
    try Migrator(Array(Self.migrations.prefix(k))).migrate(old)
    let rows = try Self.fill(old, after: Self.migrations[k - 1].name)
    try VitalSchema.migrator.migrate(old)

    let fresh = try Database.inMemory()
    try VitalSchema.migrator.migrate(fresh)
    for (table, row) in rows {
      let names = row.keys.sorted()
      try fresh.execute(
        "INSERT INTO \(table) (\(names.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
        values: names.map { row[$0]! })
    }
    #expect(try Self.schema(old) == Self.schema(fresh))
    for table in try Self.tables(fresh) {
      #expect(try Self.contents(old, table) == Self.contents(fresh, table), "\(table) differs after \(k) migrations")
    }
    #expect(try !rows.isEmpty || k == 1)
  }

  // MARK: Helpers

  /// The tables a database has, without SQLite's own and an R*Tree's shadows.
  static func tables(_ db: Database) throws -> [String] {
    try db.query(
      """
      SELECT name FROM pragma_table_list
      WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite_%'
      ORDER BY name
      """
    ) { try $0.get(0, as: String.self) }
  }

  static func schema(_ db: Database) throws -> [String] {
    try db.query("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name") {
      try $0.get(0, as: String.self)
    }
  }

  /// A table's rows in a stable order, each as text; what differs by nature is left out (the
  /// random device id, when a migration ran).
  static func contents(_ db: Database, _ table: String) throws -> [String] {
    let skip =
      switch table {
      case "meta": " WHERE key <> 'device_id'"
      default: ""
      }
    let columns =
      table == "schema_migration"
      ? "name"
      : try db.query("SELECT name FROM pragma_table_info(?)", table) { try $0.get(0, as: String.self) }
        .map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
    return try db.query("SELECT \(columns) FROM \(table)\(skip) ORDER BY 1") { try $0.get(0, as: String.self) }
  }

  /// Three rows in every table the first migrations made, valid for their checks and keys: row
  /// `i` has `v<i>` in every text column (so keys and references agree), `i` in every number, the
  /// first choice of a column limited to a list. Tables a later migration's data step reads are
  /// left empty until that step has run (sync_key for 0010, health_sample for 0011): those
  /// steps are meant to change what they find.
  static func fill(_ db: Database, after last: String) throws -> [(String, [String: DatabaseValue])] {
    let emptyUntil = ["sync_key": "0010", "health_sample": "0011"]
    var inserted: [(String, [String: DatabaseValue])] = []
    let order = try db.query(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ) { (try $0.get(0, as: String.self), try $0.get(1, as: String.self)) }
    for (table, sql) in order where table != "schema_migration" && !sql.hasPrefix("CREATE VIRTUAL") {
      if let until = emptyUntil[table], last < until { continue }
      let shadows = try db.query("SELECT name FROM pragma_table_list WHERE type = 'shadow'") {
        try $0.get(0, as: String.self)
      }
      if shadows.contains(table) { continue }
      let columns = try db.query("SELECT name, type FROM pragma_table_info(?)", table) {
        (try $0.get(0, as: String.self), try $0.get(1, as: String.self))
      }
      for i in 1...3 {
        var row: [String: DatabaseValue] = [:]
        for (name, type) in columns {
          if let first = firstChoice(of: name, in: sql) {
            row[name] = first
            continue
          }
          row[name] =
            switch type {
            case "INTEGER": .integer(Int64(i))
            case "REAL": .real(Double(i) + 0.5)
            case "BLOB": .blob(Data([UInt8(i)]))
            default: .text("v\(i)")
            }
        }
        let names = row.keys.sorted()
        try db.execute(
          "INSERT INTO \(table) (\(names.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
          values: names.map { row[$0]! })
        inserted.append((table, row))
      }
    }
    return inserted
  }

  /// The first value of `CHECK (column IN (a, b, ...))` or `CHECK (column = a OR ...)` in a
  /// table's SQL.
  static func firstChoice(of column: String, in sql: String) -> DatabaseValue? {
    guard let range = sql.range(of: "CHECK (\(column) IN (") ?? sql.range(of: "CHECK (\(column) = ") else { return nil }
    let first = sql[range.upperBound...].prefix { $0 != "," && $0 != ")" && $0 != " " }
    if first.hasPrefix("'") { return .text(String(first.dropFirst().dropLast())) }
    return Int64(first).map(DatabaseValue.integer)
  }
}
