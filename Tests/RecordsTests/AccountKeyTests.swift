import Foundation
import Replication
import Schema
import Storage
import Testing

/// Ids made from content are the same for every account that imports the same file: each synced
/// table is keyed by (account, id), and a home made before that learns it on upgrade.
@Suite struct AccountKeyTests {
  @Test func everySyncedTableIsKeyedByAccountAndID() throws {
    let db = try Database.inMemory()
    try VitalSchema.migrator.migrate(db)
    for dataset in VitalSchema.datasets {
      let key = try db.query(
        "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", dataset.table
      ) { try $0.get(0, as: String.self) }
      #expect(key == ["account_id", dataset.key], "\(dataset.table)")
    }
  }

  /// A home at migration 12 had `id TEXT PRIMARY KEY`: after the upgrade its rows are all there
  /// and a second account can hold the same ids.
  @Test func anOlderHomeIsRekeyedWithItsRowsKept() throws {
    let db = try Database.inMemory()
    try Migrator(Array(VitalSchema.migrator.migrations.prefix(12))).migrate(db)
    // The shape 0007 made before table descriptions were keyed per account.
    try db.executeScript(
      """
      DROP TABLE activity_summary;
      CREATE TABLE activity_summary (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES account(id)
        ON DELETE CASCADE, date TEXT NOT NULL, move_kcal REAL, move_kcal_goal REAL, move_minutes REAL,
        move_minutes_goal REAL, exercise_minutes REAL, exercise_goal REAL, stand_hours REAL, stand_goal REAL) STRICT;
      CREATE INDEX activity_summary_date ON activity_summary(account_id, date);
      """)
    for account in ["a", "b"] {
      try db.execute(
        "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, 'x', ?)", account,
        "\(account)@example.org", Date())
    }
    try Replica(db: db, accountID: "a", now: Date()).write(
      .activitySummary, id: "as-2026-11-01", ["date": .text("2026-11-01"), "move_kcal": .real(420)])
    #expect(throws: StorageError.self) {
      try Replica(db: db, accountID: "b", now: Date()).write(
        .activitySummary, id: "as-2026-11-01", ["date": .text("2026-11-01"), "move_kcal": .real(300)])
    }
    #expect(try VitalSchema.migrator.migrate(db).first == "0013_ids_per_account")
    try Replica(db: db, accountID: "b", now: Date()).write(
      .activitySummary, id: "as-2026-11-01", ["date": .text("2026-11-01"), "move_kcal": .real(300)])
    let rows = try db.query("SELECT account_id, move_kcal FROM activity_summary ORDER BY account_id") {
      "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: Double.self))"
    }
    #expect(rows == ["a 420.0", "b 300.0"])
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'activity_summary_date'") == 1)
  }
}
