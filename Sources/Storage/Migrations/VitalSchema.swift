import Foundation

/// Vital's schema history. Append only: `schema.sql` at the project root must equal what these
/// build, and a test checks it.
public enum VitalSchema {
  public static let migrator = Migrator([
    Migration(
      "0001_meta",
      sql: """
        CREATE TABLE meta (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;
        INSERT INTO meta (key, value) VALUES ('device_id', lower(hex(randomblob(8))));
        """)
  ])

  /// Opens the database at `path` and brings it up to date. A file from a newer Vital is refused
  /// before anything is written.
  public static func open(path: String) throws -> Database {
    let db = try Database(path: path)
    try migrator.migrate(db)
    return db
  }
}
