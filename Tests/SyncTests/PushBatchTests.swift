import Foundation
import Storage
import Sync
import Testing

@testable import Replication
@testable import SyncHTTP

/// A push batch stops at the records one request may carry as well as at its bytes, and never
/// in the middle of a record.
@Suite struct PushBatchTests {
  let clock = HLC("2026-11-25T10:00:00.000Z-0000-00000000000000aa")!

  func entries(_ names: [String]) -> [Replica.Pending] {
    names.enumerated().map { seq, name in
      let parts = name.split(separator: ".")
      return Replica.Pending(
        seq: Int64(seq + 1), dataset: "donation", id: String(parts[0]), field: String(parts[1]), value: .text("x"),
        hlc: clock)
    }
  }

  func cut(_ names: [String], records: Int, budget: Int = 1 << 20) -> [String] {
    SyncClient.cut(entries(names), budget: budget, sealed: false, records: records).map { "\($0.id).\($0.field)" }
  }

  @Test func aBatchHoldsAtMostTheRecordsARequestMayCarry() {
    let many = (0..<12).map { "r\($0).place" }
    #expect(cut(many, records: 5) == Array(many.prefix(5)))
    #expect(cut(many, records: 12) == many)
    #expect(
      cut(["a.kind", "a.place", "b.kind", "b.place", "c.kind"], records: 2) == [
        "a.kind", "a.place", "b.kind", "b.place",
      ])
    // A record already in the batch may come again further on: it does not count twice.
    #expect(cut(["a.kind", "b.kind", "a.place", "c.kind"], records: 2) == ["a.kind", "b.kind", "a.place"])
  }

  @Test func theDefaultIsTheServersBound() {
    let many = (0..<(SyncLimits.changesPerRequest + 10)).map { "r\($0).place" }
    #expect(SyncClient.cut(entries(many), budget: 1 << 30, sealed: false).count == SyncLimits.changesPerRequest)
  }

  /// Entries become records in the order their records first appear, each field with its latest
  /// entry, whether a record's entries follow each other or not, and one id in two datasets is
  /// two records.
  @Test func entriesGroupIntoRecordsInOrderWithTheLatestValueOfEachField() {
    func entry(_ seq: Int64, _ dataset: String, _ id: String, _ field: String, _ value: String) -> Replica.Pending {
      Replica.Pending(seq: seq, dataset: dataset, id: id, field: field, value: .text(value), hlc: clock)
    }
    let changes = SyncClient.group([
      entry(1, "donation", "a", "kind", "whole"), entry(2, "donation", "a", "place", "P"),
      entry(3, "donation", "b", "kind", "plasma"), entry(4, "medication", "a", "name", "M"),
      entry(5, "donation", "a", "kind", "platelets"), entry(6, "donation", "b", "place", "Q"),
    ])
    #expect(changes.map { "\($0.dataset)/\($0.id)" } == ["donation/a", "donation/b", "medication/a"])
    #expect(changes[0].fields["kind"]?.value == .string("platelets"))
    #expect(changes[0].fields["place"]?.value == .string("P"))
    #expect(changes[1].fields.keys.sorted() == ["kind", "place"])
    #expect(changes[2].fields.keys.sorted() == ["name"])
  }
}

/// A batch read from a real outbox stops at the records a request may carry, with every record
/// in it whole: a record that comes back further on (edited after others were written) counts
/// again while the batch is read, and the batch then ends before the record that went over.
@Suite struct PushBatchOutboxTests {
  @Test func aBatchFromTheOutboxEndsOnAWholeRecordAtTheRecordCount() throws {
    let device = try Device(email: "ann@example.org", url: URL(string: "http://127.0.0.1:9")!)
    let limit = SyncLimits.changesPerRequest
    var ids: [String] = []
    try device.db.transaction { _ in
      // The first record, then others; the first is edited, then more records come.
      for i in 0..<(limit - 1) { ids.append(try device.donation(place: "Centre \(i)")) }
      try device.replica.write(.donation, id: ids[0], ["place": .text("Edited"), "notes": .text("again")])
      for i in 0..<3 { ids.append(try device.donation(place: "Later \(i)")) }
    }
    let client = device.client
    client.batchSize = 100_000
    var setAside: [Replica.SetAside] = []
    let batch = try client.nextBatch(budget: 1 << 30, sealed: false, setAside: &setAside)
    let changes = SyncClient.group(batch)
    // Counted as runs, the edit made the batch stop one record early: never late.
    #expect((limit - 1)...limit ~= changes.count, "\(changes.count) records")
    #expect(changes.map(\.id) == Array(ids.prefix(changes.count)))
    #expect(changes.allSatisfy { $0.fields.count == 6 }, "every record whole")
    #expect(changes[0].fields["place"]?.value == .string("Edited"))
    // The rest follows in the next batch, from the first record left out.
    let next = try client.nextBatch(after: batch.last!.seq, budget: 1 << 30, sealed: false, setAside: &setAside)
    #expect(SyncClient.group(next).map(\.id) == Array(ids.dropFirst(changes.count)))
  }
}

/// An imported record whose fields share one clock is read as one entry, not one per field: it
/// must make the same change, weigh the same bytes and be cut where its fields would be.
@Suite struct WholeRecordEntryTests {
  @Test func anImportedRecordReadWholeIsTheChangeItsFieldsMake() throws {
    let device = try Device(email: "ann@example.org", url: URL(string: "http://127.0.0.1:9")!)
    let records = (0..<30).map { i -> (id: String, values: [DatabaseValue]) in
      let values: [String: DatabaseValue] = [
        "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
        "place": .text("Centre \(i), \"Nord\""), "notes": i % 3 == 0 ? .text("note \(i)") : .null,
        "hb_g_dl": i % 2 == 0 ? .real(14.2) : .null,
      ]
      return (String(format: "r%02d", i), Dataset.donation.fields.map { values[$0] ?? .null })
    }
    #expect(try device.db.transaction { _ in try device.replica.insertNew(.donation, records) } == 30)
    // One of them edited since: its fields no longer share a clock, and it is read field by field.
    try device.replica.write(.donation, id: "r07", ["place": .text("Elsewhere")])
    let whole = try device.replica.pending(limit: 1000, in: [.donation], compact: true)
    let fields = try device.replica.pending(limit: 1000, in: [.donation])
    #expect(whole.filter { $0.whole != nil }.count == 29)
    #expect(whole.filter { $0.whole == nil }.allSatisfy { $0.id == "r07" })
    #expect(fields.count == 30 * Dataset.donation.fields.count + 1)

    #expect(SyncClient.group(whole) == SyncClient.group(fields))
    #expect(SyncClient.group(whole).first { $0.id == "r07" }?.fields["place"]?.value == .string("Elsewhere"))
    for sealed in [false, true] {
      func bytes(_ entries: [Replica.Pending]) -> Int {
        entries.reduce(0) { $0 + SyncClient.estimatedBytes($1, sealed: sealed) }
      }
      #expect(bytes(whole) == bytes(fields))
      // Cut by bytes, both end before the same record.
      for budget in [1, bytes(fields) / 3, bytes(fields) / 2, bytes(fields)] {
        let a = SyncClient.cut(whole, budget: budget, sealed: sealed)
        let b = SyncClient.cut(fields, budget: budget, sealed: sealed)
        #expect(SyncClient.group(a) == SyncClient.group(b), "budget \(budget)")
      }
    }
  }

  func imported(_ ids: [String]) -> [(id: String, values: [DatabaseValue])] {
    ids.map { id in
      let values: [String: DatabaseValue] = [
        "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
        "place": .text("Centre \(id)"),
      ]
      return (id, Dataset.donation.fields.map { values[$0] ?? .null })
    }
  }

  /// Whole-record entries for records gone without a tombstone (a cache forgotten): each is an
  /// outbox entry that sends nothing.
  func ghosts(_ ids: [String], on device: Device) throws {
    for id in ids {
      try device.db.execute(
        "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, 'donation', ?, '*', NULL, ?)",
        device.accountID, id, "2026-11-25T10:00:00.000Z-0000-00000000000000aa")
    }
  }

  func batches(_ client: SyncClient) throws -> [[WireChange]] {
    var setAside: [Replica.SetAside] = []
    var batches: [[WireChange]] = []
    var seq: Int64 = 0
    while true {
      let batch = try client.nextBatch(after: seq, budget: 1 << 30, sealed: false, setAside: &setAside)
      guard let last = batch.last else { return batches }
      batches.append(SyncClient.group(batch))
      seq = last.seq
    }
  }

  /// A batch that reaches the outbox entries it may read ends on a whole record all the same: a
  /// record written field by field has an entry per field, and the limit may fall among them.
  /// Counted by what they expand to, entries that send nothing let the limit fall inside one.
  @Test func aBatchCutByItsEntryLimitEndsOnAWholeRecord() throws {
    let device = try Device(email: "ann@example.org", url: URL(string: "http://127.0.0.1:9")!)
    #expect(try device.db.transaction { _ in try device.replica.insertNew(.donation, imported(["w0", "w1"])) } == 2)
    try ghosts(["g1", "g2"], on: device)
    let written = [try device.donation(place: "A"), try device.donation(place: "B")]
    let client = device.client
    client.batchSize = 8
    let sent = try batches(client)
    #expect(sent.map { $0.map(\.id) } == [["w0", "w1"], [written[0]], [written[1]]])
    let all = Dataset.donation.fields.count
    #expect(sent.joined().allSatisfy { $0.fields.count == ($0.id.hasPrefix("w") ? all : 6) }, "every record whole")
  }

  /// A batch's worth of entries that send nothing does not end the push: they are dropped, and
  /// what follows them goes.
  @Test func entriesThatSendNothingDoNotHoldBackTheRest() throws {
    let device = try Device(email: "ann@example.org", url: URL(string: "http://127.0.0.1:9")!)
    try ghosts(["g1", "g2", "g3", "g4"], on: device)
    #expect(try device.db.transaction { _ in try device.replica.insertNew(.donation, imported(["w0"])) } == 1)
    let client = device.client
    client.batchSize = 3
    #expect(try batches(client).map { $0.map(\.id) } == [["w0"]])
    // The three read alone are gone; the fourth, read with w0, goes when w0's answer comes.
    #expect(try device.replica.pendingCount() == 2)
  }

  /// A record read whole and entries of the same record read field by field group as they would
  /// all field by field, in any order: the later entry's value wins.
  @Test func aWholeEntryGroupsWithTheRecordsOtherEntriesInOrder() throws {
    let device = try Device(email: "ann@example.org", url: URL(string: "http://127.0.0.1:9")!)
    #expect(try device.db.transaction { _ in try device.replica.insertNew(.donation, imported(["a"])) } == 1)
    let whole = try device.replica.pending(limit: 100, in: [.donation], compact: true)
    let fields = try device.replica.pending(limit: 100, in: [.donation])
    #expect(whole.count == 1 && whole[0].whole != nil)
    let hlc = whole[0].hlc
    func entry(_ seq: Int64, _ id: String, _ place: String) -> Replica.Pending {
      Replica.Pending(seq: seq, dataset: "donation", id: id, field: "place", value: .text(place), hlc: hlc)
    }
    let (earlier, later, other) = (entry(0, "a", "Early"), entry(9, "a", "Late"), entry(5, "b", "B"))
    for (a, b) in [
      (whole + [later], fields + [later]), ([earlier] + whole, [earlier] + fields), (whole + whole, fields + fields),
      ([earlier, other] + whole + [later], [earlier, other] + fields + [later]),
    ] {
      #expect(SyncClient.group(a) == SyncClient.group(b))
    }
    #expect(SyncClient.group(whole + [later])[0].fields["place"]?.value == .string("Late"))
    #expect(SyncClient.group([earlier] + whole)[0].fields["place"]?.value == .string("Centre a"))
  }

  /// A value too large in a record read whole names the field it is in, the first in name order
  /// when several are, as read field by field.
  @Test func aTooLargeValueInAWholeRecordIsNamed() throws {
    let device = try Device(email: "ann@example.org", url: URL(string: "http://127.0.0.1:9")!)
    #expect(try device.db.transaction { _ in try device.replica.insertNew(.donation, imported(["a"])) } == 1)
    let read = try #require(try device.replica.pending(limit: 100, in: [.donation], compact: true).first?.whole)
    var values = read.values
    for field in ["place", "notes"] {
      values[read.names.firstIndex(of: field)!] = .text(String(repeating: "x", count: Replica.maxValueBytes + 1))
    }
    let clock = HLC("2026-11-25T10:00:00.000Z-0000-00000000000000aa")!
    let entry = Replica.Pending(
      seq: 1, dataset: "donation", id: "a", field: "*", value: .null, hlc: clock, whole: (read.names, values))
    #expect(SyncClient.oversized([entry])?.field == "notes")
    #expect(SyncClient.oversized([entry])?.bytes == Replica.maxValueBytes + 1)
  }
}
