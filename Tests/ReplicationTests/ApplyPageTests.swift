import Foundation
import Replication
import Schema
import Storage
import Testing

/// A page from the server applied in bulk (`Replica.applyPage`) ends exactly as the same
/// records applied one by one (`Replica.apply`): rows, clocks, changed days, nothing queued.
@Suite struct ApplyPageTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)
  static let node = "00000000000000aa"

  static func hlc(_ minute: Int) -> HLC {
    HLC.next(after: nil, now: Date(timeIntervalSince1970: 1_789_000_000 + Double(minute) * 60), node: node)
  }

  typealias Fields = [String: (value: DatabaseValue, hlc: HLC)]

  static func donation(place: String, notes: String? = nil, at minute: Int) -> Fields {
    var fields: Fields = [
      "kind": (.text("plasma"), hlc(minute)), "status": (.text("completed"), hlc(minute)),
      "scheduled_at": (.null, hlc(minute)), "completed_at": (.text("2026-01-01T10:00:00.000Z"), hlc(minute)),
      "place": (.text(place), hlc(minute)),
    ]
    if let notes { fields["notes"] = (.text(notes), hlc(minute)) }
    return fields
  }

  /// Records of several kinds and fates, as a server could send them in one page.
  static func page() -> [Replica.Incoming] {
    var page: [Replica.Incoming] = []
    for i in 0..<150 {
      // Two sets of columns (with and without notes), more rows than one statement takes.
      page.append(
        .init(.donation, id: "new-\(i)", donation(place: "Centre \(i)", notes: i % 3 == 0 ? "ok" : nil, at: 2)))
    }
    page.append(.init(.donation, id: "seen", ["place": (.text("Edited"), hlc(3))]))
    page.append(.init(.donation, id: "gone", [FieldMerge.deleted: (.integer(1), hlc(3))]))
    page.append(
      .init(
        .donation, id: "born-deleted",
        donation(place: "X", at: 2).merging([FieldMerge.deleted: (.integer(1), hlc(2))]) { a, _ in a }))
    page.append(.init(.donation, id: "twice", donation(place: "First", at: 2)))
    page.append(.init(.donation, id: "twice", ["place": (.text("Second"), hlc(4)), "notes": (.text("later"), hlc(4))]))
    page.append(.init(.donation, id: "nothing-kept", ["no_such_field": (.text("?"), hlc(2))]))
    // Whole records, as if new, of ids with clocks here: one edited since, one deleted since.
    page.append(.init(.donation, id: "seen-whole", donation(place: "Edited whole", at: 3)))
    page.append(.init(.donation, id: "deleted-whole", donation(place: "Edited after", at: 3)))
    // Every field with one clock (written as `*=`), and fields with clocks of their own.
    var whole = donation(place: "Whole", notes: "all", at: 5)
    for field in ["hb_g_dl", "ferritin_ng_ml", "bp_systolic", "bp_diastolic", "pulse_bpm"] {
      whole[field] = (.null, hlc(5))
    }
    page.append(.init(.donation, id: "whole", whole))
    page.append(
      .init(
        .donation, id: "mixed", donation(place: "Mixed", at: 2).merging(["notes": (.text("n"), hlc(6))]) { _, b in b }))
    for i in 0..<70 {
      let start = "2026-03-2\(i % 8)T23:30:00.000Z"
      page.append(
        .init(
          .healthSample, id: "sample-\(i)",
          [
            "type": (.text("steps"), hlc(2)), "value": (.integer(Int64(i)), hlc(2)), "unit": (.text("count"), hlc(2)),
            "source": (.text("Watch"), hlc(2)), "start": (.text(start), hlc(2)),
            "end": (.text("2026-03-2\(i % 8 + 1)T00:30:00.000Z"), hlc(2)),
          ]))
    }
    page.append(
      .init(
        .blob, id: "cafe",
        ["mime": (.text("image/png"), hlc(2)), "width": (.integer(4), hlc(2)), "height": (.integer(4), hlc(2))],
        untracked: ["data": .blob(Data([1, 2, 3]))]))
    return page
  }

  /// What both replicas hold before the page: records it edits and deletes.
  static func prepare(_ db: Database, _ account: String) throws -> Replica {
    let replica = Replica(db: db, accountID: account, now: now)
    try replica.apply(.donation, id: "seen", donation(place: "Before", at: 1))
    try replica.apply(.donation, id: "gone", donation(place: "Doomed", at: 1))
    try replica.apply(.donation, id: "seen-whole", donation(place: "Before", at: 1))
    try replica.apply(.donation, id: "deleted-whole", donation(place: "Doomed", at: 1))
    try replica.apply(.donation, id: "deleted-whole", [FieldMerge.deleted: (.integer(1), hlc(2))])
    return replica
  }

  static func dump(_ db: Database) throws -> [String] {
    var lines: [String] = []
    for table in VitalSchema.datasets.map(\.table) + ["sync_row", "replica_changed_day", "sync_outbox"] {
      lines += try db.query("SELECT * FROM \(table) ORDER BY 1, 2, 3") { row in
        table + ": " + (0..<row.count).map { "\(row[$0])" }.joined(separator: "|")
      }
    }
    return lines
  }

  @Test func aPageInBulkEndsAsTheSameRecordsOneByOne() throws {
    let (bulk, single) = (try TestAccount(), try TestAccount())
    let bulkReplica = try Self.prepare(bulk.db, bulk.account.id)
    let singleReplica = try Self.prepare(single.db, single.account.id)
    let page = Self.page()
    // Applied in pieces of other sizes than a statement's, each in its own transaction.
    var rest = page[...]
    for size in [37, 100, page.count] where !rest.isEmpty {
      let piece = Array(rest.prefix(size))
      rest = rest.dropFirst(size)
      try bulk.db.transaction { _ in try bulkReplica.applyPage(piece) }
    }
    for record in page {
      try singleReplica.apply(
        record.dataset, id: record.id, record.fields, untracked: record.untracked, observeClock: false)
    }
    let expected = try Self.dump(single.db)
    #expect(try Self.dump(bulk.db) == expected)
    #expect(expected.contains { $0.hasPrefix("replica_changed_day: ") }, "samples note their days")
    #expect(expected.contains { $0.contains("Second") } && !expected.contains { $0.contains("born-deleted|") })
    #expect(try bulk.db.scalar(Int.self, "SELECT count(*) FROM donation") == 155)
    #expect(expected.contains { $0.contains("Edited whole") } && !expected.contains { $0.contains("Edited after") })
    #expect(
      expected.contains { $0.hasPrefix("sync_row: ") && $0.contains(#"text("whole")|text("*="#) },
      "every field with one clock is written as one")
  }

  /// A page checked as new rows where it was read (`checkedAsNew`, on the core that reads the
  /// next page) is written as one checked where it is written: the same rows, clocks and
  /// refusals, each naming the same field and device.
  @Test func aPageCheckedAheadEndsAsOneCheckedWhereItIsWritten() throws {
    var page = Self.page()
    var bogus = Self.donation(place: "Somewhere", at: 2)
    bogus["kind"] = (.text("bogus"), Self.hlc(2))
    page.append(.init(.donation, id: "bogus-kind", bogus))
    var missing = Self.donation(place: "Nowhere", at: 2)
    missing["place"] = (.null, Self.hlc(2))
    page.append(.init(.donation, id: "no-place", missing))
    // One per account: the second is refused by the table, the third by its value.
    page.append(.init(.profile, id: "me", ["name": (.text("Ada"), Self.hlc(2))]))
    page.append(.init(.profile, id: "someone-else", ["name": (.text("Bob"), Self.hlc(2))]))
    page.append(.init(.profile, id: "heavy", ["weight_kg": (.real(0), Self.hlc(2))]))
    let checked = page.map { $0.checkedAsNew() }
    let refused = checked.compactMap { record -> String? in
      guard case .refused(let fault) = record.asNew else { return nil }
      return "\(record.id): \(fault.field)"
    }
    // Records that are not whole would be refused as new rows: they are merged (or, keeping
    // nothing of the dataset, passed over), never inserted.
    #expect(
      refused == [
        "seen: kind", "gone: kind", "twice: kind", "nothing-kept: kind", "bogus-kind: kind", "no-place: place",
        "heavy: weight_kg",
      ])
    #expect(checked.allSatisfy { if case .notDone = $0.asNew { false } else { true } })
    // Another record (bytes come with it) is checked again where it is written.
    #expect({ if case .notDone = checked[0].with(untracked: [:]).asNew { true } else { false } }())
    let (ahead, here) = (try TestAccount(), try TestAccount())
    let aheadReplica = try Self.prepare(ahead.db, ahead.account.id)
    let hereReplica = try Self.prepare(here.db, here.account.id)
    try ahead.db.transaction { _ in try aheadReplica.applyPage(checked) }
    try here.db.transaction { _ in try hereReplica.applyPage(page) }
    #expect(try Self.dump(ahead.db) == Self.dump(here.db))
    let refusals = try hereReplica.refusals().map { "\($0.id): \($0.field) \($0.reason) by \($0.device)" }
    #expect(refusals.count == 4)
    #expect(try aheadReplica.refusals().map { "\($0.id): \($0.field) \($0.reason) by \($0.device)" } == refusals)
  }

  @Test func aRowWithoutClocksIsUpdatedNotRefused() throws {
    let account = try TestAccount()
    let replica = Replica(db: account.db, accountID: account.account.id, now: Self.now)
    // Written around the replica (an older Vital's cache): a row, and no clocks for it.
    try account.db.execute(
      """
      INSERT INTO donation (id, account_id, kind, status, completed_at, place, updated_at)
      VALUES ('stray', ?, 'plasma', 'completed', '2026-01-01T10:00:00.000Z', 'Old', '2026-01-01T00:00:00.000Z')
      """, account.account.id)
    let page =
      [Replica.Incoming(.donation, id: "stray", Self.donation(place: "New", at: 2))]
      + (0..<3).map { Replica.Incoming(.donation, id: "other-\($0)", Self.donation(place: "Other", at: 2)) }
    try account.db.transaction { _ in try replica.applyPage(page) }
    #expect(try account.db.scalar(String.self, "SELECT place FROM donation WHERE id = 'stray'") == "New")
    #expect(try account.db.scalar(Int.self, "SELECT count(*) FROM sync_row WHERE dataset = 'donation'") == 4)
  }

  /// A field whose column has a default (`excluded INTEGER NOT NULL DEFAULT 0`) may come as
  /// NULL, from an older Vital or a hand-made client: it is stored as the default, in a fresh
  /// record and in one merged, instead of breaking the table's rule and the whole page.
  @Test func aNullWhereTheColumnHasADefaultIsStoredAsTheDefault() throws {
    let account = try TestAccount()
    let replica = Replica(db: account.db, accountID: account.account.id, now: Self.now)
    func period(_ start: String, excluded: DatabaseValue, at minute: Int) -> Fields {
      [
        "start": (.text(start), Self.hlc(minute)), "end": (.null, Self.hlc(minute)),
        "excluded": (excluded, Self.hlc(minute)),
      ]
    }
    #expect(Dataset.period.defaults["excluded"] == .integer(0))
    try account.db.transaction { _ in
      try replica.applyPage([
        .init(.period, id: "fresh", period("2026-03-01", excluded: .null, at: 2)),
        .init(.period, id: "merged", period("2026-04-01", excluded: .integer(1), at: 2)),
      ])
    }
    try account.db.transaction { _ in
      try replica.applyPage([.init(.period, id: "merged", ["excluded": (.null, Self.hlc(3))])])
    }
    #expect(
      try account.db.query("SELECT id, excluded FROM period ORDER BY id") {
        "\(try $0.get(0, as: String.self))=\(try $0.get(1, as: Int.self))"
      } == ["fresh=0", "merged=0"])
  }
}
