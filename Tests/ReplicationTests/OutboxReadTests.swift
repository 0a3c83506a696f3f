import Foundation
import Replication
import Schema
import Storage
import Testing

/// Whole-record outbox entries are read only as far as the batch needs: each costs two reads.
@Suite struct OutboxReadTests {
  @Test func wholeRecordsAreReadUntilTheCallerHasEnough() throws {
    let account = try TestAccount()
    let replica = Replica(
      db: account.db, accountID: account.account.id, now: Date(timeIntervalSince1970: 1_790_000_000))
    let records = (0..<50).map { i -> (id: String, values: [DatabaseValue]) in
      let values: [String: DatabaseValue] = [
        "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
        "place": .text("Centre \(i)"),
      ]
      return (String(format: "r%02d", i), Dataset.donation.fields.map { values[$0] ?? .null })
    }
    #expect(try account.db.transaction { _ in try replica.insertNew(.donation, records) } == 50)
    let all = try replica.pending(limit: 1000, in: VitalSchema.datasets)
    #expect(Set(all.map(\.id)).count == 50)
    #expect(all.count == 50 * Dataset.donation.fields.count, "one entry per field of each record")

    var seen: [String] = []
    let some = try replica.pending(limit: 1000, in: VitalSchema.datasets) { entries in
      #expect(Set(entries.map(\.id)).count == 1, "handed one record at a time")
      seen.append(entries.first!.id)
      return seen.count == 7
    }
    #expect(seen.count == 7, "no record read after the caller had enough")
    #expect(some.map(\.id) == all.prefix(7 * Dataset.donation.fields.count).map(\.id))
    // After the seventh record's entry: the rest, in order.
    let rest = try replica.pending(limit: 1000, after: some.last!.seq, in: VitalSchema.datasets)
    #expect(rest.map(\.id) == all.dropFirst(some.count).map(\.id))
  }

  /// Whole records are read walking the table in id order while the outbox follows it, and
  /// looked up where it does not: either way an entry carries its record as stored now, a
  /// deleted one its tombstone, and another account's records (with ids beside theirs) none.
  @Test func wholeRecordsReadInAnyOrderAreTheRecordsAsStored() throws {
    let account = try TestAccount()
    try account.db.execute(
      "INSERT INTO account (id, email, password_hash, created_at) VALUES ('other', 'o@example.org', 'x', '2020-01-01')")
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    func records(_ ids: [String]) -> [(id: String, values: [DatabaseValue])] {
      ids.map { id in
        let values: [String: DatabaseValue] = [
          "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
          "place": .text("Centre \(id)"),
        ]
        return (id, Dataset.donation.fields.map { values[$0] ?? .null })
      }
    }
    let ids = (0..<60).map { String(format: "r%02d", $0) }
    let other = Replica(db: account.db, accountID: "other", now: now)
    _ = try account.db.transaction { _ in try other.insertNew(.donation, records(ids.map { $0 + "-other" })) }
    let replica = Replica(db: account.db, accountID: account.account.id, now: now)
    // In id order, then against it, then with ids skipped, then back to the start.
    let order =
      Array(ids[0..<20]) + ids[20..<40].reversed() + stride(from: 40, to: 60, by: 3).map { ids[$0] } + ["r41", "r42"]
    _ = try account.db.transaction { _ in try replica.insertNew(.donation, records(order)) }
    let deleted: Set = ["r00", "r05", "r25", "r43", "r42"]
    for id in deleted { try replica.delete(.donation, id: id) }
    try replica.write(.donation, id: "r10", ["place": .text("Elsewhere")])

    let columns = Dataset.donation.namesInOrder.map { "\"\($0)\"" }.joined(separator: ", ")
    let stored = Dictionary(
      uniqueKeysWithValues: try account.db.query(
        "SELECT id, \(columns) FROM donation WHERE account_id = ?", account.account.id
      ) { row in (try row.get(0, as: String.self), (1..<row.count).map { row[$0] }) })
    for compact in [true, false] {
      let pending = try replica.pending(limit: 10_000, in: VitalSchema.datasets, compact: compact)
      let sent = Set(pending.filter { $0.field != FieldMerge.deleted }.map(\.id))
      #expect(sent == Set(order).subtracting(deleted))
      for entry in pending where entry.field != FieldMerge.deleted {
        if let whole = entry.whole {
          #expect(whole.values == stored[entry.id], "\(entry.id)")
        } else {
          let place = Dataset.donation.namesInOrder.firstIndex(of: entry.field)!
          #expect(entry.value == stored[entry.id]?[place], "\(entry.id) \(entry.field)")
        }
      }
      #expect(Set(pending.filter { $0.field == FieldMerge.deleted }.map(\.id)) == deleted)
    }
  }

  /// Whole records of two datasets, their entries interleaved and their ids the same: each
  /// dataset's records and clocks are read from its own rows, deleted ones as tombstones.
  @Test func wholeRecordsOfTwoDatasetsInOneReadAreEachReadFromTheirOwnRows() throws {
    let account = try TestAccount()
    let replica = Replica(
      db: account.db, accountID: account.account.id, now: Date(timeIntervalSince1970: 1_790_000_000))
    let kinds: [(dataset: Dataset, values: [String: DatabaseValue])] = [
      (
        .donation,
        [
          "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
          "place": .text("Centre"),
        ]
      ),
      (.medication, ["name": .text("Iron"), "times": .text("08:00"), "since": .text("2026-01-01T08:00:00.000Z")]),
    ]
    let ids = (0..<30).map { String(format: "r%02d", $0) }
    for id in ids {
      for (dataset, values) in kinds {
        var values = values
        values[dataset == .donation ? "place" : "name"] = .text("\(dataset.name) \(id)")
        let record = (id: id, values: dataset.fields.map { values[$0] ?? .null })
        #expect(try account.db.transaction { _ in try replica.insertNew(dataset, [record]) } == 1)
      }
    }
    let deleted: [String: Set<String>] = ["donation": ["r03", "r10"], "medication": ["r10", "r20"]]
    for (dataset, _) in kinds {
      for id in deleted[dataset.name]! { try replica.delete(dataset, id: id) }
    }
    let pending = try replica.pending(limit: 10_000, in: VitalSchema.datasets, compact: true)
    for (dataset, _) in kinds {
      let column = dataset == .donation ? "place" : "name"
      let stored = Dictionary(
        uniqueKeysWithValues: try account.db.query(
          "SELECT id, \(column) FROM \(dataset.table) WHERE account_id = ?", account.account.id
        ) { row in (try row.get(0, as: String.self), row[1]) })
      let entries = pending.filter { $0.dataset == dataset.name }
      let whole = entries.filter { $0.whole != nil }
      #expect(Set(whole.map(\.id)) == Set(ids).subtracting(deleted[dataset.name]!), "\(dataset.name)")
      for entry in whole {
        let place = entry.whole!.names.firstIndex(of: column)!
        #expect(entry.whole!.values[place] == stored[entry.id], "\(dataset.name) \(entry.id)")
      }
      let tombstones = entries.filter { $0.field == FieldMerge.deleted }
      #expect(Set(tombstones.map(\.id)) == deleted[dataset.name]!, "\(dataset.name)")
      // The tombstone of a whole record is its deletion's, read from its own clocks.
      #expect(tombstones.allSatisfy { $0.value == FieldMerge.Deletion.deleted.value }, "\(dataset.name)")
    }
  }

  /// Imported records share one clock (`*=hlc`); one edited since has a clock of its own for the
  /// field it changed, and its other fields keep the import's.
  @Test func aRecordEditedAfterItsImportSendsEachFieldWithItsClock() throws {
    let account = try TestAccount()
    let replica = Replica(
      db: account.db, accountID: account.account.id, now: Date(timeIntervalSince1970: 1_790_000_000))
    let records = ["r1", "r2"].map { id -> (id: String, values: [DatabaseValue]) in
      let values: [String: DatabaseValue] = [
        "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
        "place": .text("Centre"),
      ]
      return (id, Dataset.donation.fields.map { values[$0] ?? .null })
    }
    #expect(try account.db.transaction { _ in try replica.insertNew(.donation, records) } == 2)
    let later = Replica(db: account.db, accountID: account.account.id, now: Date(timeIntervalSince1970: 1_790_000_060))
    try later.write(.donation, id: "r2", ["place": .text("Elsewhere")])

    let pending = try replica.pending(limit: 1000, in: VitalSchema.datasets)
    let imported = Set(pending.filter { $0.id == "r1" }.map(\.hlc))
    #expect(imported.count == 1, "every field of an untouched import has its one clock")
    let edited = pending.filter { $0.id == "r2" && $0.seq == pending.first { $0.id == "r2" }!.seq }
    #expect(edited.count == Dataset.donation.fields.count)
    #expect(edited.first { $0.field == "place" }?.value == .text("Elsewhere"))
    #expect(edited.first { $0.field == "place" }!.hlc > imported.first!)
    #expect(edited.filter { $0.field != "place" }.allSatisfy { $0.hlc == imported.first! })
  }
}
