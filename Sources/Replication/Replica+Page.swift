import Foundation
import Storage

/// A page of records from another replica, applied as `apply` applies each, but records this
/// replica has never seen (all of them, on a new device's first sync) go in many per statement:
/// one statement per record and table made most of a first sync's time.
extension Replica {
  /// Merges every record of `page` inside the caller's transaction (a page is applied whole or
  /// not at all); the clock is the caller's to move, once per page. The outcome is that of
  /// `apply` called for each record in turn: records never seen here (no clocks, not deleted)
  /// are inserted in bulk, the others merged one by one.
  public func applyPage(_ page: [Incoming]) throws {
    precondition(db.isInTransaction, "a page is applied inside one transaction")
    // The records are read where they are, by place: a copy of one retains each of its
    // dataset's tables and texts, and a first sync made five copies of every record.
    var order: [String] = []
    var byDataset: [String: [Int]] = [:]
    for index in page.indices {
      let name = page[index].dataset.name
      if byDataset[name] == nil { order.append(name) }
      byDataset[name, default: []].append(index)
    }
    for name in order {
      let indexes = byDataset[name]!
      let dataset = page[indexes[0]].dataset
      let seen = try seenBefore(dataset, indexes.map { page[$0].id })
      var fresh: [Int] = []
      fresh.reserveCapacity(indexes.count)
      var taken = Set<String>()
      var others: [Int] = []
      for index in indexes {
        // Twice in one page, a deletion, a restore or bytes: the careful way.
        guard !seen.contains(page[index].id), page[index].untracked.isEmpty, page[index].deletion == nil,
          taken.insert(page[index].id).inserted
        else {
          others.append(index)
          continue
        }
        // A record with nothing this dataset keeps leaves no trace, as `apply` leaves none.
        guard page[index].slots.contains(where: { $0 != nil }) else { continue }
        if let fault = page[index].faultAsNew {
          try refuse(dataset, id: page[index].id, fault, device: page[index].node(of: fault.field))
          continue
        }
        fresh.append(index)
      }
      if dataset.onePerAccount {
        // Another id than the one here (a hand-made client, another email's profile) would
        // break the table's one-per-account rule and with it every later page: refused alone.
        fresh = try fresh.filter { index in
          try alone(dataset, page[index].id, device: page[index].node(of: nil)) {
            try insertFresh(dataset, page, [index])
          }
        }
      } else {
        try insertFresh(dataset, page, fresh)
      }
      var applied = fresh.map { page[$0].id }
      for index in others {
        let record = page[index]
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

  /// Inserts the records of `page` at `indexes`, never seen here, rows with the same fields many
  /// per statement, and their clocks; notes the days they cover (a dataset with a span).
  private func insertFresh(_ dataset: Dataset, _ page: [Incoming], _ indexes: [Int]) throws {
    guard !indexes.isEmpty else { return }
    // In id order, as a sweep through the keys of the table and of `sync_row`: ids are random,
    // and a page inserted as it came touches a random page of each index per record.
    let byID = indexes.sorted { page[$0].id < page[$1].id }
    // Records with the same fields go in one statement: grouped by which of the dataset's fields
    // each has, the columns ordered by name once per group. A record is known by its place in
    // `byID`, so that what is kept per record is sized to the records written here, not to the
    // page (one-per-account records are written one at a time).
    var sets: [[Bool]: [Int]] = [:]
    for position in byID.indices { sets[page[byID[position]].slots.map { $0 != nil }, default: []].append(position) }
    let groups = sets.map { has, positions in
      (dataset.fields.indices.filter { has[$0] }.sorted { dataset.fields[$0] < dataset.fields[$1] }, positions)
    }
    let stamp = dataset.stamp.map { [$0] } ?? []
    let stamped = now.databaseValue
    let chunk = 64
    var inserted = [Bool](repeating: false, count: byID.count)
    var clocks = [String](repeating: "", count: byID.count)
    var shared = SharedText()
    for (columns, positions) in groups {
      let names = [dataset.key, "account_id"] + (columns.map { dataset.fields[$0] } + stamp).map { "\"\($0)\"" }
      let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
      var statements: [Int: String] = [:]
      for first in stride(from: 0, to: positions.count, by: chunk) {
        let part = positions[first..<min(first + chunk, positions.count)]
        var values: [DatabaseValue] = []
        values.reserveCapacity(part.count * names.count)
        for position in part {
          let index = byID[position]
          values.append(.text(page[index].id))
          values.append(.text(accountID))
          for column in columns { values.append(page[index].newRowValue(column)!) }
          if !stamp.isEmpty { values.append(stamped) }
          clocks[position] = Self.clocksText(dataset, columns, page[index].slots, shared: &shared)
        }
        do {
          let sql =
            statements[part.count]
            ?? {
              let text =
                "INSERT INTO \(dataset.table) (\(names.joined(separator: ", "))) VALUES "
                + Array(repeating: tuple, count: part.count).joined(separator: ", ")
              statements[part.count] = text
              return text
            }()
          try db.execute(sql, values: values)
          for position in part { inserted[position] = true }
        } catch let error as StorageError where error.code == 1555 || error.code == 2067 {
          // A row without clocks is here already (the statement took nothing back): these
          // records merge one by one, which updates such a row.
          for position in part {
            let record = page[byID[position]]
            _ = try merge(dataset, id: record.id, record.newRowFields, untracked: [:], observeClock: false)
          }
        }
      }
    }
    let order = byID.indices.filter { inserted[$0] }
    let fullRows =
      "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES "
      + Array(repeating: "(?, ?, ?, ?)", count: chunk).joined(separator: ", ")
    for first in stride(from: 0, to: order.count, by: chunk) {
      let part = order[first..<min(first + chunk, order.count)]
      var values: [DatabaseValue] = []
      values.reserveCapacity(part.count * 4)
      for position in part {
        values += [.text(accountID), .text(dataset.name), .text(page[byID[position]].id), .text(clocks[position])]
      }
      try db.execute(
        part.count == chunk
          ? fullRows
          : "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES "
            + Array(repeating: "(?, ?, ?, ?)", count: part.count).joined(separator: ", "), values: values)
    }
    if let span = dataset.span, let start = dataset.fieldIndex[span.start], let end = dataset.fieldIndex[span.end] {
      var days = Set<Int64>()
      for position in order {
        let record = page[byID[position]]
        if let start = record.newRowValue(start), let end = record.newRowValue(end) {
          days.formUnion(Self.days(start: start, end: end))
        }
      }
      try noteChanged(dataset, days.sorted())
    }
  }
}
