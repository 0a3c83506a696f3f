import Foundation
import Storage

/// A page of records from another replica, applied as `apply` applies each, but records this
/// replica has never seen (all of them, on a new device's first sync) go in many per statement:
/// one statement per record and table made most of a first sync's time.
extension Replica {
  /// One record as it came from another replica: the fields its dataset keeps, by their place
  /// in `dataset.fields` (a first sync reads every field of every record by place; looked up by
  /// name, each was hashed three times on its way in), and its deletion state.
  public struct Incoming: Sendable {
    public typealias Field = (value: DatabaseValue, hlc: HLC)
    public let dataset: Dataset
    public let id: String
    /// Each field of `dataset.fields` that came, at its place; nil where it did not.
    public let slots: [Field?]
    /// The record's `FieldMerge.deleted` field, when it came.
    public let deletion: Field?
    /// Local columns that come with it (a blob's bytes).
    public let untracked: [String: DatabaseValue]

    public init(
      _ dataset: Dataset, id: String, slots: [Field?], deletion: Field?, untracked: [String: DatabaseValue] = [:]
    ) {
      precondition(slots.count == dataset.fields.count, "one slot per field of \(dataset.name)")
      self.dataset = dataset
      self.id = id
      self.slots = slots
      self.deletion = deletion
      self.untracked = untracked
    }

    /// From fields by name; those `dataset` does not keep are left out.
    public init(_ dataset: Dataset, id: String, _ fields: [String: Field], untracked: [String: DatabaseValue] = [:]) {
      var slots = [Field?](repeating: nil, count: dataset.fields.count)
      for (name, field) in fields {
        if let index = dataset.fieldIndex[name] { slots[index] = field }
      }
      self.init(dataset, id: id, slots: slots, deletion: fields[FieldMerge.deleted], untracked: untracked)
    }

    /// The same record with local columns.
    public func with(untracked: [String: DatabaseValue]) -> Incoming {
      Incoming(dataset, id: id, slots: slots, deletion: deletion, untracked: untracked)
    }

    /// Its fields by name, as `merge` takes them.
    public var fields: [String: Field] {
      var fields: [String: Field] = [:]
      fields.reserveCapacity(slots.count + 1)
      for (index, slot) in slots.enumerated() { if let slot { fields[dataset.fields[index]] = slot } }
      if let deletion { fields[FieldMerge.deleted] = deletion }
      return fields
    }

    /// The device that wrote its first field in the dataset's order (its deletion when it has no
    /// field): the one a refusal names when no one field is at fault.
    var writer: String? {
      (slots.lazy.compactMap { $0 }.first ?? deletion)?.hlc.node
    }

    /// The newest clock among its fields.
    public var newest: HLC? {
      var newest = deletion?.hlc
      for slot in slots { if let hlc = slot?.hlc, newest.map({ hlc > $0 }) ?? true { newest = hlc } }
      return newest
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
        guard !seen.contains(record.id), record.untracked.isEmpty, record.deletion == nil,
          taken.insert(record.id).inserted
        else {
          others.append(record)
          continue
        }
        // A record with nothing this dataset keeps leaves no trace, as `apply` leaves none.
        guard record.slots.contains(where: { $0 != nil }) else { continue }
        let winners = Fresh(record: record)
        if let fault = dataset.fault(inOrder: dataset.fields.indices.map { winners.value($0) ?? .null }) {
          try refuse(dataset, id: record.id, fault, device: winners.node(of: fault.field))
          continue
        }
        fresh.append(winners)
      }
      if dataset.onePerAccount {
        // Another id than the one here (a hand-made client, another email's profile) would
        // break the table's one-per-account rule and with it every later page: refused alone.
        fresh = try fresh.filter { record in
          try alone(dataset, record.id, device: record.node(of: nil)) {
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
          _ = try alone(dataset, record.id, device: record.writer, apply)
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

  /// A record never seen here, read by place: a NULL for a field with a default reads as that
  /// default. The record is kept whole, not copied field by field: copies of a value and its
  /// clock (two texts) cost a first sync more than reading them where they are.
  struct Fresh {
    let record: Incoming
    var id: String { record.id }

    /// The value of the field at `index`; nil when it did not come.
    func value(_ index: Int) -> DatabaseValue? {
      record.slots[index].map { record.dataset.stored(at: index, $0.value) }
    }

    /// The device that wrote `field`; without it (or with no field named), the one that wrote
    /// the record's first field in the dataset's order.
    func node(of field: String?) -> String {
      if let field, let index = record.dataset.fieldIndex[field], let slot = record.slots[index] {
        return slot.hlc.node
      }
      return record.writer!
    }

    /// Its fields by name, for the careful way (`merge`).
    var winners: [String: Incoming.Field] {
      var winners: [String: Incoming.Field] = [:]
      for (index, slot) in record.slots.enumerated() {
        if let slot { winners[record.dataset.fields[index]] = (value(index)!, slot.hlc) }
      }
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
    for index in byID { sets[records[index].record.slots.map { $0 != nil }, default: []].append(index) }
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
          let record = records[index]
          values.append(.text(record.id))
          values.append(.text(accountID))
          for column in columns { values.append(record.value(column)!) }
          if !stamp.isEmpty { values.append(now.databaseValue) }
          clocks[index] = Self.clocksText(dataset, columns, record.record.slots, shared: &shared)
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
            _ = try merge(dataset, id: record.id, record.winners, untracked: [:], observeClock: false)
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
        if let start = records[index].value(start), let end = records[index].value(end) {
          days.formUnion(Self.days(start: start, end: end))
        }
      }
      try noteChanged(dataset, days.sorted())
    }
  }
}
