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
        let winners = record.fields.filter { dataset.fields.contains($0.key) }
        // A record with nothing this dataset keeps leaves no trace, as `apply` leaves none.
        if !winners.isEmpty { fresh.append((record.id, winners)) }
      }
      try insertFresh(dataset, fresh)
      for record in others {
        _ = try merge(record.dataset, id: record.id, record.fields, untracked: record.untracked, observeClock: false)
      }
    }
  }

  /// The ids of `ids` that have clocks here: seen before, even if deleted since.
  private func seenBefore(_ dataset: Dataset, _ ids: [String]) throws -> Set<String> {
    let list = String(decoding: try JSONSerialization.data(withJSONObject: ids), as: UTF8.self)
    return Set(
      try db.query(
        """
        SELECT s.row_id FROM json_each(?) k
        CROSS JOIN sync_row s ON s.account_id = ? AND s.dataset = ? AND s.row_id = k.value
        """, list, accountID, dataset.name
      ) { try $0.get(0, as: String.self) })
  }

  /// Inserts records never seen here, rows with the same fields many per statement, and their
  /// clocks; notes the days they cover (a dataset with a span).
  private func insertFresh(
    _ dataset: Dataset, _ records: [(id: String, winners: [String: (value: DatabaseValue, hlc: HLC)])]
  )
    throws
  {
    guard !records.isEmpty else { return }
    var groups: [[String]: [Int]] = [:]
    for (index, record) in records.enumerated() { groups[record.winners.keys.sorted(), default: []].append(index) }
    let stamp = dataset.stamp.map { [$0] } ?? []
    let chunk = 64
    var inserted: [Int] = []
    inserted.reserveCapacity(records.count)
    for (columns, indexes) in groups {
      let names = [dataset.key, "account_id"] + (columns + stamp).map { "\"\($0)\"" }
      let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
      for first in stride(from: 0, to: indexes.count, by: chunk) {
        let part = indexes[first..<min(first + chunk, indexes.count)]
        var values: [DatabaseValue] = []
        values.reserveCapacity(part.count * names.count)
        for index in part {
          values.append(.text(records[index].id))
          values.append(.text(accountID))
          for column in columns { values.append(records[index].winners[column]!.value) }
          if !stamp.isEmpty { values.append(now.databaseValue) }
        }
        do {
          try db.execute(
            "INSERT INTO \(dataset.table) (\(names.joined(separator: ", "))) VALUES "
              + Array(repeating: tuple, count: part.count).joined(separator: ", "), values: values)
          inserted += part
        } catch let error as StorageError where error.code == 1555 || error.code == 2067 {
          // A row without clocks is here already (the statement took nothing back): these
          // records merge one by one, which updates such a row.
          for index in part {
            _ = try merge(dataset, id: records[index].id, records[index].winners, untracked: [:], observeClock: false)
          }
        }
      }
    }
    let records = inserted.map { records[$0] }
    for first in stride(from: 0, to: records.count, by: chunk) {
      let part = records[first..<min(first + chunk, records.count)]
      var values: [DatabaseValue] = []
      values.reserveCapacity(part.count * 4)
      for record in part {
        values += [
          .text(accountID), .text(dataset.name), .text(record.id),
          .text(Self.clocksText(dataset, record.winners.mapValues(\.hlc))),
        ]
      }
      try db.execute(
        "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES "
          + Array(repeating: "(?, ?, ?, ?)", count: part.count).joined(separator: ", "), values: values)
    }
    if let span = dataset.span {
      var days = Set<Int64>()
      for record in records {
        if let start = record.winners[span.start]?.value, let end = record.winners[span.end]?.value {
          days.formUnion(Self.days(start: start, end: end))
        }
      }
      try noteChanged(dataset, days.sorted())
    }
  }
}
