import Foundation
import Schema
import Storage
import Testing

@testable import Replication

/// A first sync leaves the created indexes out of the tables it fills, and notes each, so that
/// whoever comes after it (its own end, or the next sync after a crash) builds them again.
@Suite struct DeferredIndexesTests {
  /// Every created index of the schema, as `sqlite_schema` holds it.
  func indexes(_ db: Database) throws -> [String] {
    try db.query("SELECT name || ': ' || sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
    { try $0.get(0, as: String.self) }
  }

  @Test func onlyEmptyTablesLoseTheirIndexesAndEachIsNotedThenBuiltAgain() throws {
    let test = try TestAccount()
    let db = test.db
    let before = try indexes(db)
    // A period here already: its table keeps its index.
    try Replica(db: db, accountID: test.account.id, now: Date()).write(
      .period, id: "p1", ["start": .text("2026-01-01"), "end": .null])
    let dropped = try db.transaction { db in try DeferredIndexes.drop(on: VitalSchema.datasets, in: db) }
    #expect(dropped.contains("donation_account_date"))
    #expect(dropped.contains("health_sample_type_start") && dropped.contains("health_sample_sleep"))
    #expect(!dropped.contains("period_account_start"))
    // Not a synced table's: the outbox keeps its index.
    #expect(!dropped.contains("sync_outbox_account"))
    #expect(try DeferredIndexes.noted(in: db).map(\.name) == dropped.sorted())
    #expect(try indexes(db).count == before.count - dropped.count)

    // Rows come meanwhile; the indexes are built over them, the notes go.
    try Replica(db: db, accountID: test.account.id, now: Date()).write(
      .donation, id: "d1",
      [
        "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
        "place": .text("Centre"),
      ])
    #expect(try Set(DeferredIndexes.restore(in: db)) == Set(dropped))
    #expect(try indexes(db) == before)
    #expect(try DeferredIndexes.noted(in: db).isEmpty)
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM meta WHERE key LIKE 'deferred%'") == 0)
    let plan = try db.query(
      "EXPLAIN QUERY PLAN SELECT id FROM donation WHERE account_id = 'acc' ORDER BY coalesce(completed_at, scheduled_at) DESC, id"
    ) {
      try $0.get(3, as: String.self)
    }
    #expect(plan.joined().contains("donation_account_date"), "\(plan)")
  }

  @Test func aNoteWhoseIndexIsBackIsForgotten() throws {
    let db = try TestAccount().db
    #expect(try DeferredIndexes.restore(in: db).isEmpty)

    // Noted by a sync that stopped, then built by someone else (a migration, another sync).
    try db.transaction { db in _ = try DeferredIndexes.drop(on: [.donation], in: db) }
    try db.execute(
      "CREATE INDEX donation_account_date ON donation(account_id, coalesce(completed_at, scheduled_at) DESC, id)")
    #expect(try DeferredIndexes.restore(in: db).isEmpty)
    #expect(try DeferredIndexes.noted(in: db).isEmpty)
    #expect(try db.hasIndex(named: "donation_account_date"))

    // A note a migration made stale (its table or column gone) is forgotten without failing,
    // and the others are built all the same.
    try db.transaction { db in _ = try DeferredIndexes.drop(on: [.period], in: db) }
    try db.execute(
      "INSERT INTO meta (key, value) VALUES ('deferred_index:period_old', 'CREATE INDEX period_old ON period(gone)')")
    #expect(try DeferredIndexes.restore(in: db) == ["period_account_start"])
    #expect(try DeferredIndexes.noted(in: db).isEmpty)
    #expect(try !db.hasIndex(named: "period_old"))
  }

  @Test func aUniqueIndexStays() throws {
    let db = try TestAccount().db
    try db.execute("CREATE UNIQUE INDEX donation_place_once ON donation(account_id, place)")
    let dropped = try db.transaction { db in try DeferredIndexes.drop(on: [.donation], in: db) }
    #expect(dropped == ["donation_account_date"])
    #expect(try db.hasIndex(named: "donation_place_once"))
  }

  /// A crash during a first sync, then a new release: the indexes are built before its
  /// migrations change the tables, so that no note outlives the schema it was written for.
  @Test func notesAreBuiltBeforeMigrations() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-deferred-XXXXXX").utf8CString)
    let folder = String(cString: mkdtemp(&template)!)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/vital.sqlite"
    do {
      let db = try Database(path: path)
      try Migrator(Array(VitalSchema.migrator.migrations.dropLast())).migrate(db)
      // The last migration leaves health samples alone: only the open builds their index.
      try db.transaction { db in
        let noted = try DeferredIndexes.drop(on: [.healthSample], in: db)
        #expect(noted.contains("health_sample_type_start"))
      }
    }
    let db = try VitalSchema.open(path: path)
    #expect(try db.hasIndex(named: "health_sample_type_start") && db.hasIndex(named: "health_sample_sleep"))
    #expect(try DeferredIndexes.noted(in: db).isEmpty)
  }

  @Test func aFailedDropLeavesIndexesAndNotesAsTheyWere() throws {
    let db = try TestAccount().db
    let before = try indexes(db)
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try db.transaction { db in
        _ = try DeferredIndexes.drop(on: [.donation, .healthSample], in: db)
        throw Stop()
      }
    }
    #expect(try indexes(db) == before)
    #expect(try DeferredIndexes.noted(in: db).isEmpty)
  }
}
