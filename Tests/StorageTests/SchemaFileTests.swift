import Foundation
import Testing

@testable import Storage

@Suite struct SchemaFileTests {
  /// schema.sql at the project root, found from this source file's location.
  static let schemaPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("schema.sql").path

  /// Each schema object's SQL with white space folded, keyed by type and name.
  static func objects(_ db: Database) throws -> [String: String] {
    let rows = try db.query(
      "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
    ) { row in
      ("\(try row.get(0, as: String.self)) \(try row.get(1, as: String.self))", try row.get(2, as: String.self))
    }
    return Dictionary(uniqueKeysWithValues: rows.map { ($0.0, fold($0.1)) })
  }

  static func fold(_ sql: String) -> String {
    var text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for mark in ["(", ")", ","] {
      text = text.replacingOccurrences(of: " \(mark)", with: mark).replacingOccurrences(of: "\(mark) ", with: mark)
    }
    return text
  }

  @Test func schemaSQLMatchesWhatTheMigrationsBuild() throws {
    let migrated = try Database.inMemory()
    try VitalSchema.migrator.migrate(migrated)
    let documented = try Database.inMemory()
    try documented.executeScript(String(contentsOfFile: Self.schemaPath, encoding: .utf8))
    let built = try Self.objects(migrated)
    let written = try Self.objects(documented)
    for (name, sql) in built {
      #expect(written[name] == sql, "schema.sql differs from the migrations for \(name)")
    }
    for name in written.keys where built[name] == nil {
      Issue.record("schema.sql has \(name), which no migration builds")
    }
  }
}
