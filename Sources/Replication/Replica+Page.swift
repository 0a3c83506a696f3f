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
      var fresh: [(id: String, winners: [String: (value: DatabaseValue, hlc: HLC)])] = []
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
        var winners = record.fields.filter { dataset.fields.contains($0.key) }
        for (field, change) in winners where change.value == .null {
          winners[field] = (dataset.stored(field, .null), change.hlc)
        }
        // A record with nothing this dataset keeps leaves no trace, as `apply` leaves none.
        if winners.isEmpty { continue }
        if let fault = dataset.fault({ winners[$0]?.value }) {
          try refuse(
            dataset, id: record.id, fault, device: winners[fault.field]?.hlc.node ?? winners.first!.value.hlc.node)
          continue
        }
        fresh.append((record.id, winners))
      }
      if dataset.onePerAccount {
        // Another id than the one here (a hand-made client, another email's profile) would
        // break the table's one-per-account rule and with it every later page: refused alone.
        fresh = try fresh.filter { record in
          try alone(dataset, record.id, device: record.winners.first?.value.hlc.node) {
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

  /// Inserts records never seen here, rows with the same fields many per statement, and their
  /// clocks; notes the days they cover (a dataset with a span).
  private func insertFresh(
    _ dataset: Dataset, _ records: [(id: String, winners: [String: (value: DatabaseValue, hlc: HLC)])]
  )
    throws
  {
    guard !records.isEmpty else { return }
    // In id order, as a sweep through the keys of the table and of `sync_row`: ids are random,
    // and a page inserted as it came touches a random page of each index per record.
    let ids = records.map(\.id)
    let byID = ids.indices.sorted { ids[$0] < ids[$1] }
    // Records with the same fields go in one statement: grouped by which of the dataset's fields
    // each has (a set of positions, cheap to hash), their names sorted once per group.
    var sets: [[Bool]: [Int]] = [:]
    for index in byID {
      var has = [Bool](repeating: false, count: dataset.fields.count)
      for field in records[index].winners.keys { has[dataset.fieldIndex[field]!] = true }
      sets[has, default: []].append(index)
    }
    let groups = sets.map { has, indexes in
      (dataset.fields.indices.filter { has[$0] }.map { dataset.fields[$0] }.sorted(), indexes)
    }
    let stamp = dataset.stamp.map { [$0] } ?? []
    let chunk = 64
    var inserted = [Bool](repeating: false, count: records.count)
    var clocks = [String](repeating: "", count: records.count)
    for (columns, indexes) in groups {
      let names = [dataset.key, "account_id"] + (columns + stamp).map { "\"\($0)\"" }
      let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
      for first in stride(from: 0, to: indexes.count, by: chunk) {
        let part = indexes[first..<min(first + chunk, indexes.count)]
        var values: [DatabaseValue] = []
        values.reserveCapacity(part.count * names.count)
        for index in part {
          let winners = records[index].winners
          values.append(.text(ids[index]))
          values.append(.text(accountID))
          for column in columns { values.append(winners[column]!.value) }
          if !stamp.isEmpty { values.append(now.databaseValue) }
          clocks[index] = Self.clocksText(dataset, columns, winners)
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
            _ = try merge(dataset, id: records[index].id, records[index].winners, untracked: [:], observeClock: false)
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
        values += [.text(accountID), .text(dataset.name), .text(ids[index]), .text(clocks[index])]
      }
      try db.execute(
        "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES "
          + Array(repeating: "(?, ?, ?, ?)", count: part.count).joined(separator: ", "), values: values)
    }
    if let span = dataset.span {
      var days = Set<Int64>()
      for index in order {
        let winners = records[index].winners
        if let start = winners[span.start]?.value, let end = winners[span.end]?.value {
          days.formUnion(Self.days(start: start, end: end))
        }
      }
      try noteChanged(dataset, days.sorted())
    }
  }
}
