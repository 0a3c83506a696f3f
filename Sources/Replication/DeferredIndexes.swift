import Storage

/// Indexes left out of tables while a first sync fills them, and built once at its end.
///
/// A new device's first sync brings records in id order, which the tables' other indexes (a
/// donation's date, a sample's type and start) do not follow: each record went to a random page
/// of each, and a first sync of 100,000 shuffled donations spent about a third of its time there.
/// One sort at the end writes each page once. A first sync commits every few seconds, so that a
/// crash keeps what came, and an index is then missing between two commits: each one dropped is
/// noted in `meta` in the transaction that drops it, and built again by the next sync if this
/// one does not get to it. Until then the tables answer as before, more slowly.
public enum DeferredIndexes {
  static let notePrefix = "deferred_index:"

  /// Drops the created indexes (not UNIQUE ones, nor those of keys and constraints) of every table of
  /// `datasets` that holds no row, and notes each; inside the caller's transaction. Returns the
  /// names dropped.
  @discardableResult
  public static func drop(on datasets: [Dataset], in db: Database) throws -> [String] {
    precondition(db.isInTransaction, "an index is dropped and noted in one transaction")
    var tables: [String] = []
    for dataset in datasets where !tables.contains(dataset.table) { tables.append(dataset.table) }
    var dropped: [String] = []
    for table in tables where try db.scalar(Int.self, "SELECT 1 FROM \"\(table)\" LIMIT 1") == nil {
      // A UNIQUE index is a rule the rows must keep while they come, not only a way to find them.
      let unique = Set(
        try db.query("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1", table) {
          try $0.get(0, as: String.self)
        })
      for index in try db.createdIndexes(on: table) where !unique.contains(index.name) {
        try db.execute(
          "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", notePrefix + index.name, index.sql)
        try db.dropIndex(index.name)
        dropped.append(index.name)
      }
    }
    return dropped
  }

  /// Builds every noted index that is missing and forgets the notes, in a transaction of its
  /// own unless the caller's is open. Nothing is written when there is no note (every sync asks).
  /// A note whose statement no longer builds (a migration changed the table since) is forgotten
  /// too: the migration made the indexes the table has now, and a sync that merged everything
  /// must not fail for good over an index. Returns the names built.
  @discardableResult
  public static func restore(in db: Database) throws -> [String] {
    let notes = try noted(in: db)
    guard !notes.isEmpty else { return [] }
    return try db.transactionOrPart { db in
      var built: [String] = []
      for index in notes {
        if try !db.hasIndex(named: index.name) {
          // A savepoint each: one that fails leaves the others' work in place.
          if (try? db.transaction { db in try db.execute(index.sql) }) != nil { built.append(index.name) }
        }
        try db.execute("DELETE FROM meta WHERE key = ?", notePrefix + index.name)
      }
      return built
    }
  }

  /// The indexes noted as dropped and not built again yet.
  public static func noted(in db: Database) throws -> [(name: String, sql: String)] {
    // `substr` and not LIKE: an index name may hold `_` or `%`.
    try db.query(
      "SELECT key, value FROM meta WHERE substr(key, 1, ?) = ? ORDER BY key", notePrefix.count, notePrefix
    ) { (String(try $0.get(0, as: String.self).dropFirst(notePrefix.count)), try $0.get(1, as: String.self)) }
  }
}
