/// A table described once. Its `CREATE` statements, the column list a store selects, and (one
/// layer up) the fields that replicate all come from this one value, so a column is written in
/// one place.
public struct Table: Sendable {
  public struct Column: Sendable {
    public let name: String
    /// Type and constraints, as they follow the name in `CREATE TABLE`.
    public let definition: String

    public init(_ name: String, _ definition: String) {
      self.name = name
      self.definition = definition
    }

    public static func text(_ name: String, _ constraints: String = "") -> Self { .init(name, "TEXT \(constraints)") }
    public static func integer(_ name: String, _ constraints: String = "") -> Self {
      .init(name, "INTEGER \(constraints)")
    }
    public static func real(_ name: String, _ constraints: String = "") -> Self { .init(name, "REAL \(constraints)") }
    public static func blob(_ name: String, _ constraints: String = "") -> Self { .init(name, "BLOB \(constraints)") }
    /// A column of any type (STRICT's `ANY`): a value whose type varies by row.
    public static func any(_ name: String, _ constraints: String = "") -> Self { .init(name, "ANY \(constraints)") }
  }

  public let name: String
  public let columns: [Column]
  /// Table constraints (`PRIMARY KEY (a, b)`, `CHECK (...)`), after the columns.
  public let constraints: [String]
  public let withoutRowID: Bool
  /// `name: columns` pairs, each made `CREATE INDEX name ON table(columns)`; `columns WHERE
  /// condition` makes a partial index, of the rows the condition holds for.
  public let indexes: KeyValuePairs<String, String>
  /// Why the table is as it is: kept in the schema itself, so `schema.sql` and `.schema` show it.
  public let comment: String?

  public init(
    _ name: String, comment: String? = nil, _ columns: [Column], constraints: [String] = [],
    withoutRowID: Bool = false, indexes: KeyValuePairs<String, String> = [:]
  ) {
    precondition(Set(columns.map(\.name)).count == columns.count, "columns of \(name) must be unique")
    self.name = name
    self.comment = comment
    self.columns = columns
    self.constraints = constraints
    self.withoutRowID = withoutRowID
    self.indexes = indexes
  }

  public var columnNames: [String] { columns.map(\.name) }

  /// `names` quoted and comma-separated, for a `SELECT` or an `INSERT`: every column by default.
  public func list(_ names: [String]? = nil) -> String {
    let names = names ?? columnNames
    precondition(names.allSatisfy(columnNames.contains), "\(name) has no column among \(names)")
    return names.map(Self.quoted).joined(separator: ", ")
  }

  /// Every statement that creates the table and its indexes, each ending in `;`.
  public var createStatements: [String] {
    var lines: [String] = []
    if let comment { lines += comment.split(separator: "\n").map { "  -- \($0)" } }
    let body =
      columns.map { "  \(Self.quoted($0.name)) \($0.definition.trimmingCharacters(in: .whitespaces))" }
      + constraints.map { "  \($0)" }
    lines += [body.joined(separator: ",\n")]
    let options = withoutRowID ? "STRICT, WITHOUT ROWID" : "STRICT"
    let create = "CREATE TABLE \(name) (\n\(lines.joined(separator: "\n"))\n) \(options);"
    return [create]
      + indexes.map { index in
        guard let split = index.value.range(of: " WHERE ") else {
          return "CREATE INDEX \(index.key) ON \(name)(\(index.value));"
        }
        let columns = index.value[..<split.lowerBound]
        return "CREATE INDEX \(index.key) ON \(name)(\(columns)) WHERE \(index.value[split.upperBound...]);"
      }
  }

  /// A name as SQL reads it: plain when it is a plain word, double-quoted when it is a keyword.
  public static func quoted(_ name: String) -> String {
    keywords.contains(name.uppercased()) ? "\"\(name)\"" : name
  }

  /// The column names Vital uses that SQLite reserves.
  static let keywords: Set<String> = ["END", "ORDER", "GROUP", "FROM", "DEFAULT"]
}
