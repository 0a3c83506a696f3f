import Foundation
import Storage

/// A page of records from another replica, applied as `apply` applies each, but records this
/// replica has never seen (all of them, on a new device's first sync) go in many per statement:
/// one statement per record and table made most of a first sync's time.
extension Replica {
  /// One record as it came from another replica.
  public struct Incoming {
    public let dataset: Dataset
    public let id: String
    public let fields: [String: (value: DatabaseValue, hlc: HLC)]
    /// Local columns that come with it (a blob's bytes).
    public let untracked: [String: DatabaseValue]

    public init(
      _ dataset: Dataset, id: String, _ fields: [String: (value: DatabaseValue, hlc: HLC)],
      untracked: [String: DatabaseValue] = [:]
    ) {
      self.dataset = dataset
      self.id = id
      self.fields = fields
      self.untracked = untracked
    }
  }

  /// Merges every record of `page` inside the caller's transaction (a page is applied whole or
  /// not at all); the clock is the caller's to move, once per page. The outcome is that of
  /// `apply` called for each record in turn: records never seen here (no clocks, not deleted)
  /// are inserted in bulk, the others merged one by one.
  public func applyPage(_ page: [Incoming]) throws {
    precondition(db.isInTransaction, "a page is applied inside one transaction")
    var order: [String] = []
    var byDataset: [String: [Incoming]] = [:]
    for record in page {
      if byDataset[record.dataset.name] == nil { order.append(record.dataset.name) }
      byDataset[record.dataset.name, default: []].append(record)
    }
    for name in order {
      let records = byDataset[name]!
      let dataset = records[0].dataset
      let seen = try seenBefore(dataset, records.map(\.id))
      var fresh: [Fresh] = []
      var taken = Set<String>()
      var others: [Incoming] = []
      for record in records {
        // Twice in one page, a deletion, a restore or bytes: the careful way.
        guard !seen.contains(record.id), record.untracked.isEmpty, record.fields[FieldMerge.deleted] == nil,
          taken.insert(record.id).inserted
        else {
          others.append(record)
          continue
        }
        guard let winners = Fresh(record, in: dataset) else {
          // A record with nothing this dataset keeps leaves no trace, as `apply` leaves none.
          continue
        }
        if let fault = dataset.fault(inOrder: winners.slots.map { $0?.value ?? .null }) {
          try refuse(dataset, id: record.id, fault, device: winners.node(of: fault.field, in: dataset))
          continue
        }
        fresh.append(winners)
      }
      if dataset.onePerAccount {
        // Another id than the one here (a hand-made client, another email's profile) would
        // break the table's one-per-account rule and with it every later page: refused alone.
        fresh = try fresh.filter { record in
          try alone(dataset, record.id, device: record.node(of: nil, in: dataset)) {
            try insertFresh(dataset, [record])
          }
        }
      } else {
        try insertFresh(dataset, fresh)
      }
      var applied = fresh.map(\.id)
      for record in others {
        var merged = false
        let apply = {
          merged = try merge(
            record.dataset, id: record.id, record.fields, untracked: record.untracked, observeClock: false)
        }
        if dataset.onePerAccount {
          _ = try alone(dataset, record.id, device: record.fields.first?.value.hlc.node, apply)
        } else {
          try apply()
        }
        if merged { applied.append(record.id) }
      }
      try clearRefusals(dataset, applied)
    }
  }

  /// Runs `write` in a savepoint: a table constraint it breaks refuses the record, not the page.
  private func alone(_ dataset: Dataset, _ id: String, device: String?, _ write: () throws -> Void) throws -> Bool {
    do {
      try db.transaction { _ in try write() }
      return true
    } catch StorageError.constraint {
      let fault = Dataset.Fault(field: dataset.key, reason: "another \(dataset.name) than this account's one")
      try refuse(dataset, id: id, fault, device: device ?? "unknown")
      return false
    }
  }

  /// The ids of `ids` that have clocks here: seen before, even if deleted since.
  private func seenBefore(_ dataset: Dataset, _ ids: [String]) throws -> Set<String> {
    var seen = Set<String>()
    let chunk = 500
    for first in stride(from: 0, to: ids.count, by: chunk) {
      let part = ids[first..<min(first + chunk, ids.count)]
      let found = try db.query(
        "SELECT row_id FROM sync_row WHERE account_id = ? AND dataset = ? AND row_id IN ("
          + Array(repeating: "?", count: part.count).joined(separator: ", ") + ")",
        arguments: [accountID, dataset.name] + part.map { $0 }
      ) { try $0.get(0, as: String.self) }
      seen.formUnion(found)
    }
    return seen
  }

  /// A record never seen here: the value and clock of each field of its dataset it has, in the
  /// dataset's order. Looked up by position, where a dictionary by name cost a first sync
  /// hashing every field's name a dozen times.
  struct Fresh {
    let id: String
    let slots: [(value: DatabaseValue, hlc: HLC)?]

    /// The fields of `record` that `dataset` keeps, a NULL for a field with a default as that
    /// default; nil when it has none of them.
    init?(_ record: Incoming, in dataset: Dataset) {
      var slots = [(value: DatabaseValue, hlc: HLC)?](repeating: nil, count: dataset.fields.count)
      var any = false
      for (field, change) in record.fields {
        guard let index = dataset.fieldIndex[field] else { continue }
        slots[index] = (change.value == .null ? dataset.stored(field, .null) : change.value, change.hlc)
        any = true
      }
      guard any else { return nil }
      self.id = record.id
      self.slots = slots
    }

    /// The device that wrote `field`; without it (or with no field named), the one that wrote
    /// the record's first field in the dataset's order.
    func node(of field: String?, in dataset: Dataset) -> String {
      if let field, let index = dataset.fieldIndex[field], let slot = slots[index] { return slot.hlc.node }
      return slots.lazy.compactMap { $0 }.first!.hlc.node
    }

    /// Its fields by name, for the careful way (`merge`).
    func winners(in dataset: Dataset) -> [String: (value: DatabaseValue, hlc: HLC)] {
      var winners: [String: (value: DatabaseValue, hlc: HLC)] = [:]
      for (index, slot) in slots.enumerated() { if let slot { winners[dataset.fields[index]] = slot } }
      return winners
    }
  }

  /// Inserts records never seen here, rows with the same fields many per statement, and their
  /// clocks; notes the days they cover (a dataset with a span).
  private func insertFresh(_ dataset: Dataset, _ records: [Fresh]) throws {
    guard !records.isEmpty else { return }
    // In id order, as a sweep through the keys of the table and of `sync_row`: ids are random,
    // and a page inserted as it came touches a random page of each index per record.
    let byID = records.indices.sorted { records[$0].id < records[$1].id }
    // Records with the same fields go in one statement: grouped by which of the dataset's fields
    // each has, their positions ordered by name once per group.
    var sets: [[Bool]: [Int]] = [:]
    for index in byID { sets[records[index].slots.map { $0 != nil }, default: []].append(index) }
    let groups = sets.map { has, indexes in
      (dataset.fields.indices.filter { has[$0] }.sorted { dataset.fields[$0] < dataset.fields[$1] }, indexes)
    }
    let stamp = dataset.stamp.map { [$0] } ?? []
    let chunk = 64
    var inserted = [Bool](repeating: false, count: records.count)
    var clocks = [String](repeating: "", count: records.count)
    var shared = SharedText()
    for (columns, indexes) in groups {
      let names = [dataset.key, "account_id"] + (columns.map { dataset.fields[$0] } + stamp).map { "\"\($0)\"" }
      let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
      for first in stride(from: 0, to: indexes.count, by: chunk) {
        let part = indexes[first..<min(first + chunk, indexes.count)]
        var values: [DatabaseValue] = []
        values.reserveCapacity(part.count * names.count)
        for index in part {
          let slots = records[index].slots
          values.append(.text(records[index].id))
          values.append(.text(accountID))
          for column in columns { values.append(slots[column]!.value) }
          if !stamp.isEmpty { values.append(now.databaseValue) }
          clocks[index] = Self.clocksText(dataset, columns, slots, shared: &shared)
        }
        do {
          try db.execute(
            "INSERT INTO \(dataset.table) (\(names.joined(separator: ", "))) VALUES "
              + Array(repeating: tuple, count: part.count).joined(separator: ", "), values: values)
          for index in part { inserted[index] = true }
        } catch let error as StorageError where error.code == 1555 || error.code == 2067 {
          // A row without clocks is here already (the statement took nothing back): these
          // records merge one by one, which updates such a row.
          for index in part {
            let record = records[index]
            _ = try merge(dataset, id: record.id, record.winners(in: dataset), untracked: [:], observeClock: false)
          }
        }
      }
    }
    let order = byID.filter { inserted[$0] }
    for first in stride(from: 0, to: order.count, by: chunk) {
      let part = order[first..<min(first + chunk, order.count)]
      var values: [DatabaseValue] = []
      values.reserveCapacity(part.count * 4)
      for index in part {
        values += [.text(accountID), .text(dataset.name), .text(records[index].id), .text(clocks[index])]
      }
      try db.execute(
        "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES "
          + Array(repeating: "(?, ?, ?, ?)", count: part.count).joined(separator: ", "), values: values)
    }
    if let span = dataset.span, let start = dataset.fieldIndex[span.start], let end = dataset.fieldIndex[span.end] {
      var days = Set<Int64>()
      for index in order {
        let slots = records[index].slots
        if let start = slots[start]?.value, let end = slots[end]?.value {
          days.formUnion(Self.days(start: start, end: end))
        }
      }
      try noteChanged(dataset, days.sorted())
    }
  }
}
