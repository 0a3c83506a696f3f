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
    var last: (name: String, indexes: [Int])?
    for index in page.indices {
      // Pages come mostly of one dataset: the name is hashed once per run of it, not per record.
      let name = page[index].dataset.name
      if let run = last, run.name == name {
        last!.indexes.append(index)
        continue
      }
      if let run = last { byDataset[run.name, default: []] += run.indexes }
      if byDataset[name] == nil { order.append(name) }
      last = (name, [index])
    }
    if let run = last { byDataset[run.name, default: []] += run.indexes }
    for name in order {
      let indexes = byDataset[name]!
      let dataset = page[indexes[0]].dataset
      if dataset.onePerAccount {
        try applyOnePerAccount(dataset, page, indexes)
      } else {
        try applyRecords(dataset, page, indexes)
      }
    }
  }

  /// The records of one dataset at `indexes` of `page`. Those that look new (a whole record,
  /// not a deletion, first of its id in the page) go in bulk without asking first whether this
  /// replica has seen them: asking cost a first sync a tenth of its writing core. One that has
  /// clocks here after all fails its statement (`insertFresh`), and is merged with the others.
  private func applyRecords(_ dataset: Dataset, _ page: [Incoming], _ indexes: [Int]) throws {
    let byID = indexes.sorted { page[$0].id < page[$1].id || (page[$0].id == page[$1].id && $0 < $1) }
    // An id twice in one page: only its first plain occurrence may be new. Found in id order,
    // so that the usual page (no id twice) hashes none.
    var repeated = Set<String>()
    for position in byID.indices.dropFirst() where page[byID[position]].id == page[byID[position - 1]].id {
      repeated.insert(page[byID[position]].id)
    }
    var isFresh = [Bool](repeating: false, count: page.count)
    var taken = Set<String>()
    var doubtful: [Int] = []
    var others: [Int] = []
    for index in indexes {
      // A deletion, a restore or bytes, or an id met before in the page: the careful way.
      guard page[index].untracked.isEmpty, page[index].deletion == nil,
        repeated.isEmpty || !repeated.contains(page[index].id) || taken.insert(page[index].id).inserted
      else {
        others.append(index)
        continue
      }
      // Nothing this dataset keeps, or fields a new row would refuse: merged if seen before.
      guard page[index].slots.contains(where: { $0 != nil }), page[index].faultAsNew == nil else {
        doubtful.append(index)
        continue
      }
      isFresh[index] = true
    }
    let seen = try seenBefore(dataset, doubtful.map { page[$0].id })
    for index in doubtful {
      let record = page[index]
      if seen.contains(record.id) {
        others.append(index)
      } else if record.slots.contains(where: { $0 != nil }), let fault = record.faultAsNew {
        try refuse(dataset, id: record.id, fault, device: record.node(of: fault.field))
      }
      // Else it keeps nothing of this dataset, and leaves no trace, as `apply` leaves none.
    }
    let found = try insertFresh(dataset, page, byID.filter { isFresh[$0] })
    for index in found { isFresh[index] = false }
    var applied = indexes.filter { isFresh[$0] }.map { page[$0].id }
    for index in (others + found).sorted() {
      let record = page[index]
      if try merge(dataset, id: record.id, record.fields, untracked: record.untracked, observeClock: false) {
        applied.append(record.id)
      }
    }
    try clearRefusals(dataset, applied)
  }

  /// Records of a dataset with one per account (a profile), each alone: another id than the one
  /// here (a hand-made client, another email's profile) would break the table's one-per-account
  /// rule and with it every later page, so it is refused alone.
  private func applyOnePerAccount(_ dataset: Dataset, _ page: [Incoming], _ indexes: [Int]) throws {
    let seen = try seenBefore(dataset, indexes.map { page[$0].id })
    var fresh: [Int] = []
    var others: [Int] = []
    var taken = Set<String>()
    for index in indexes {
      let record = page[index]
      guard !seen.contains(record.id), record.untracked.isEmpty, record.deletion == nil,
        taken.insert(record.id).inserted
      else {
        others.append(index)
        continue
      }
      guard record.slots.contains(where: { $0 != nil }) else { continue }
      if let fault = record.faultAsNew {
        try refuse(dataset, id: record.id, fault, device: record.node(of: fault.field))
        continue
      }
      fresh.append(index)
    }
    var applied: [String] = []
    for index in fresh {
      let inserted = try alone(dataset, page[index].id, device: page[index].node(of: nil)) {
        _ = try insertFresh(dataset, page, [index])
      }
      if inserted { applied.append(page[index].id) }
    }
    for index in others {
      let record = page[index]
      var merged = false
      _ = try alone(dataset, record.id, device: record.writer) {
        merged = try merge(dataset, id: record.id, record.fields, untracked: record.untracked, observeClock: false)
      }
      if merged { applied.append(record.id) }
    }
    try clearRefusals(dataset, applied)
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

  /// Inserts the records of `page` at `byID` (in id order, no id twice), which look never seen
  /// here: their clocks, then their rows many per statement; notes the days they cover (a
  /// dataset with a span). Returns those that have clocks here after all, written nowhere, for
  /// the caller to merge.
  private func insertFresh(_ dataset: Dataset, _ page: [Incoming], _ byID: [Int]) throws -> [Int] {
    guard !byID.isEmpty else { return [] }
    // In id order, as a sweep through the keys of the table and of `sync_row`: ids are random,
    // and a page inserted as it came touches a random page of each index per record.
    // Records with the same fields go in one statement: grouped by which of the dataset's fields
    // each has, the columns ordered by name once per group. A record is known by its place in
    // `byID`, so that what is kept per record is sized to the records written here, not to the
    // page (one-per-account records are written one at a time).
    // A record's fields are those of the record before, nearly always: only a record whose
    // differ looks its group up (a key made and hashed per record was a tenth of this function).
    var found: [(has: [Bool], positions: [Int])] = []
    var place: [[Bool]: Int] = [:]
    func fits(_ index: Int, _ group: Int) -> Bool {
      found[group].has.indices.allSatisfy { found[group].has[$0] == (page[index].slots[$0] != nil) }
    }
    var current = -1
    for position in byID.indices {
      let index = byID[position]
      if current < 0 || !fits(index, current) {
        let has = page[index].slots.map { $0 != nil }
        if let known = place[has] {
          current = known
        } else {
          current = found.count
          place[has] = current
          found.append((has, []))
        }
      }
      found[current].positions.append(position)
    }
    let groups = found.map { has, positions in
      (dataset.fields.indices.filter { has[$0] }.sorted { dataset.fields[$0] < dataset.fields[$1] }, positions)
    }
    var clocks = [String](repeating: "", count: byID.count)
    var shared = SharedText()
    for (columns, positions) in groups {
      for position in positions {
        clocks[position] = Self.clocksText(dataset, columns, page[byID[position]], shared: &shared)
      }
    }
    let chunk = 64
    // The clocks first: one that is here already (a record seen before, maybe deleted since)
    // fails its statement, which then took nothing, and only then are that statement's ids
    // looked up. A first sync never looks one up.
    var seen = [Bool](repeating: false, count: byID.count)
    var clockRows = BulkInsert(
      db, table: "sync_row", fixed: [("account_id", .text(accountID)), ("dataset", .text(dataset.name))],
      varying: ["row_id", "clocks"], rows: chunk)
    func insertClocks(_ part: [Int]) throws {
      try clockRows.insert(part.count) { slot, column in
        .text(column == 0 ? page[byID[part[slot]]].id : clocks[part[slot]])
      }
    }
    for first in stride(from: 0, to: byID.count, by: chunk) {
      let part = Array(first..<min(first + chunk, byID.count))
      do {
        try insertClocks(part)
      } catch let error as StorageError where error.code == 1555 {
        let found = try seenBefore(dataset, part.map { page[byID[$0]].id })
        for position in part where found.contains(page[byID[position]].id) { seen[position] = true }
        try insertClocks(part.filter { !seen[$0] })
      }
    }
    let fixed =
      [("account_id", DatabaseValue.text(accountID))] + (dataset.stamp.map { [($0, now.databaseValue)] } ?? [])
    var inserted = [Bool](repeating: false, count: byID.count)
    for (columns, all) in groups {
      let positions = all.filter { !seen[$0] }
      var rows = BulkInsert(
        db, table: dataset.table, fixed: fixed, varying: [dataset.key] + columns.map { dataset.fields[$0] }, rows: chunk
      )
      for first in stride(from: 0, to: positions.count, by: chunk) {
        let part = positions[first..<min(first + chunk, positions.count)]
        do {
          // Each value read where its record is: a copy of the record per value (a binding of
          // it) retained and released all it holds, a sixth of the writing core's time.
          try rows.insert(part.count) { slot, column in
            let index = byID[part[part.startIndex + slot]]
            return column == 0 ? .text(page[index].id) : page[index].newRowValue(columns[column - 1])!
          }
          for position in part { inserted[position] = true }
        } catch let error as StorageError where error.code == 1555 || error.code == 2067 {
          // A row without clocks is here already (the statement took nothing back): the clocks
          // just written go, and these records merge one by one, which updates such a row.
          let ids = part.map { page[byID[$0]].id }
          try db.execute(
            "DELETE FROM sync_row WHERE account_id = ? AND dataset = ? AND row_id IN ("
              + Array(repeating: "?", count: ids.count).joined(separator: ", ") + ")",
            arguments: [accountID, dataset.name] + ids.map { $0 })
          for position in part {
            let record = page[byID[position]]
            _ = try merge(dataset, id: record.id, record.newRowFields, untracked: [:], observeClock: false)
          }
        }
      }
    }
    if let span = dataset.span, let start = dataset.fieldIndex[span.start], let end = dataset.fieldIndex[span.end] {
      var days = Set<Int64>()
      for position in byID.indices where inserted[position] {
        let index = byID[position]
        if let start = page[index].newRowValue(start), let end = page[index].newRowValue(end) {
          days.formUnion(Self.days(start: start, end: end))
        }
      }
      try noteChanged(dataset, days.sorted())
    }
    return byID.indices.filter { seen[$0] }.map { byID[$0] }
  }
}
