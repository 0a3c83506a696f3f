import Foundation

/// One step of schema history. A shipped migration is never edited: a change is a new one.
public struct Migration: Sendable {
  public let name: String
  let apply: @Sendable (Database) throws -> Void

  public init(_ name: String, _ apply: @escaping @Sendable (Database) throws -> Void) {
    self.name = name
    self.apply = apply
  }

  /// A migration that is a plain SQL script.
  public init(_ name: String, sql: String) {
    self.init(name) { try $0.executeScript(sql) }
  }
}

/// Applies an ordered list of migrations, each in its own IMMEDIATE transaction together with
/// its bookkeeping row, so a crash leaves the database at a whole version.
public struct Migrator: Sendable {
  public let migrations: [Migration]

  public init(_ migrations: [Migration]) {
    precondition(Set(migrations.map(\.name)).count == migrations.count, "migration names must be unique")
    self.migrations = migrations
  }

  /// The names already applied to `db`, in order. Reads only.
  public func appliedMigrations(in db: Database) throws -> [String] {
    let hasTable =
      try db.scalar(
        Int64.self, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migration'") ?? 0
    guard hasTable > 0 else { return [] }
    return try db.query("SELECT name FROM schema_migration ORDER BY rowid") { try $0.get(0, as: String.self) }
  }

  /// Throws `newerSchema` when `db` holds migrations this version does not know; returns the
  /// applied ones. Reads only.
  @discardableResult
  public func checkCompatible(_ db: Database) throws -> [String] {
    let version = try db.scalar(Int.self, "PRAGMA user_version") ?? 0
    let applied = try appliedMigrations(in: db)
    let known = migrations.map(\.name)
    if version > known.count || applied.count > known.count || Array(known.prefix(applied.count)) != applied {
      throw StorageError.newerSchema(found: max(version, applied.count), supported: known.count)
    }
    return applied
  }

  /// Brings `db` up to date; returns the names it applied (none when already current).
  /// `beforeUpgrade` runs once before the first migration of a database that had some applied
  /// already (an upgrade, not a new file), and never when nothing is to be applied.
  @discardableResult
  public func migrate(_ db: Database, beforeUpgrade: (Database) throws -> Void = { _ in }) throws -> [String] {
    // Every command opens the database: when all is applied, no write transaction is needed.
    let alreadyApplied = Set(try checkCompatible(db))
    if !alreadyApplied.isEmpty, alreadyApplied.count < migrations.count { try beforeUpgrade(db) }
    var done: [String] = []
    for (index, migration) in migrations.enumerated() where !alreadyApplied.contains(migration.name) {
      let applied = try db.transaction(.immediate) { db -> Bool in
        // Re-read inside the write lock: another process may have migrated meanwhile.
        if try appliedMigrations(in: db).contains(migration.name) { return false }
        try db.execute(
          """
          CREATE TABLE IF NOT EXISTS schema_migration (
            name TEXT PRIMARY KEY,
            applied_at TEXT NOT NULL
          ) STRICT
          """)
        do {
          try migration.apply(db)
        } catch {
          throw StorageError.migrationFailed(name: migration.name, reason: "\(error)")
        }
        try db.execute("INSERT INTO schema_migration (name, applied_at) VALUES (?, ?)", migration.name, Date())
        try db.execute("PRAGMA user_version = \(index + 1)")
        return true
      }
      if applied { done.append(migration.name) }
    }
    return done
  }

  /// The schema version of `db`: how many migrations it has.
  public func version(of db: Database) throws -> Int {
    try appliedMigrations(in: db).count
  }
}
