import Foundation
import Storage

/// The one way to write a synced record. Each write goes to its table, stamps every written
/// field with a fresh clock reading, and records the fields in the outbox, all in one
/// transaction: nothing can change a synced row without the change being sent.
public struct Replica {
  public let db: Database
  public let accountID: String
  public let now: Date

  public init(db: Database, accountID: String, now: Date) {
    self.db = db
    self.accountID = accountID
    self.now = now
  }

  // MARK: Local writes

  /// Sets `fields` of record `id` (creating it when new; a new record must name every required
  /// column). `untracked` columns are written but never sent (blob bytes travel on their own).
  public func write(
    _ dataset: Dataset, id: String, _ fields: [String: DatabaseValue], untracked: [String: DatabaseValue] = [:]
  ) throws {
    precondition(fields.keys.allSatisfy(dataset.fields.contains), "unknown field for \(dataset.name)")
    try Self.checkSizes(dataset, fields.lazy.map { ($0.key, $0.value) })
    try db.transaction { db in
      // The record as it will be, judged by its rules: a new one whole, an old one by what changes.
      let stored = try values(dataset, id, fields: dataset.fields)
      if let fault = dataset.fault(
        in: (stored ?? [:]).merging(fields) { _, new in new }, touching: stored == nil ? nil : Set(fields.keys))
      {
        throw ReplicaError.invalid(dataset: dataset.name, id: id, field: fault.field, reason: fault.reason)
      }
      let hlc = try tick()
      let before = try spanDays(dataset, id)
      if ChangeJournal.isOpen(db) {
        let old = try values(dataset, id, fields: Array(fields.keys))
        try journal.note(
          old == nil ? .create : .edit, dataset, id: id, hlc: hlc, fields: Array(fields.keys), before: old ?? [:],
          at: now)
      }
      try store(dataset, id: id, fields, untracked: untracked)
      if dataset.span != nil { try noteChanged(dataset, Set(before + spanDays(dataset, id))) }
      var clocks = try self.clocks(dataset, id)
      if let state = FieldMerge.deletion(in: clocks), state.kind != .restored {
        // Written again after a delete (an id made from content: a source, a dose): it is back,
        // and every device must hear so.
        for key in [FieldMerge.deleted, FieldMerge.withdrawn] { clocks[key] = nil }
        clocks[FieldMerge.restored] = hlc
        try db.execute(
          "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, ?, ?, ?, 0, ?)",
          accountID, dataset.name, id, FieldMerge.deleted, hlc.description)
      }
      for (field, value) in fields {
        clocks[field] = hlc
        try db.execute(
          "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, ?, ?, ?, ?, ?)",
          accountID, dataset.name, id, field, value, hlc.description)
      }
      try save(dataset, id, clocks)
    }
  }

  /// Deletes record `id` and leaves a tombstone that travels like a field.
  public func delete(_ dataset: Dataset, id: String) throws {
    try delete(dataset, id: id, undoable: true)
  }

  /// Deletes, for every device, the records `condition` selects, outside the open change: no
  /// `vital undo` brings them back (housekeeping, such as a blob no record points at any more,
  /// whose bytes a server then collects). Returns their ids.
  @discardableResult
  public func deleteForGood(
    _ dataset: Dataset, where condition: String, _ arguments: (any DatabaseValueConvertible)?...
  ) throws -> [String] {
    try db.transaction { db in
      let ids = try db.query(
        "SELECT \(dataset.key) FROM \(dataset.table) WHERE account_id = ? AND (\(condition))",
        arguments: [accountID] + arguments
      ) { try $0.get(0, as: String.self) }
      for id in ids { try delete(dataset, id: id, undoable: false) }
      return ids
    }
  }

  private func delete(_ dataset: Dataset, id: String, undoable: Bool) throws {
    try db.transaction { db in
      let hlc = try tick()
      try noteChanged(dataset, spanDays(dataset, id))
      if undoable, ChangeJournal.isOpen(db), let old = try values(dataset, id, fields: dataset.fields) {
        try journal.note(.delete, dataset, id: id, hlc: hlc, fields: [], before: old, at: now)
      }
      try db.execute("DELETE FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?", id, accountID)
      var clocks = try self.clocks(dataset, id)
      clocks[FieldMerge.restored] = nil
      clocks[FieldMerge.withdrawn] = nil
      clocks[FieldMerge.deleted] = hlc
      try db.execute(
        "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, ?, ?, ?, 1, ?)",
        accountID, dataset.name, id, FieldMerge.deleted, hlc.description)
      try save(dataset, id, clocks)
    }
  }

  /// Inserts records that may be new, in bulk (an import): one clock reading for the batch and
  /// one outbox entry per record (field `*`: the whole record, read when it is sent). A record
  /// this replica has seen before, even deleted, is left alone. Returns how many were inserted.
  /// `values` follow `dataset.fields`. Called inside a transaction, it is part of it: a failure
  /// may leave some of the records written there, for the caller to roll back.
  public func insertNew(_ dataset: Dataset, _ records: [(id: String, values: [DatabaseValue])]) throws -> Int {
    guard !records.isEmpty else { return 0 }
    try Self.check(dataset, records)
    // Inside an import's transaction, a failure here fails the whole import.
    return try db.transactionOrPart { db in
      let clock = try tick()
      let hlc = clock.description
      let names = [dataset.key, "account_id"] + dataset.fields.map { "\"\($0)\"" } + [dataset.stamp].compactMap { $0 }
      // Statements prepared once and bound with what stays the same once: per record only the
      // id and the values are bound (imports insert millions).
      // A record whose import an undo took back comes back when imported again; one deleted by
      // hand stays deleted. The clocks go in many per statement; RETURNING names the records
      // that are new (or back), and only those go on to the table and the outbox.
      func clockStatement(rows n: Int) throws -> Statement {
        let statement = try db.statement(
          """
          INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES \(
            (0..<n).map { "(?1, ?2, ?\($0 + 5), ?3)" }.joined(separator: ", "))
          ON CONFLICT (account_id, dataset, row_id) DO UPDATE SET clocks = ?3 || ';\(FieldMerge.restored)=' || ?4
          WHERE sync_row.clocks LIKE '%\(FieldMerge.withdrawn)=%'
          RETURNING row_id
          """)
        try statement.bind(.text(accountID), at: 1)
        try statement.bind(.text(dataset.name), at: 2)
        try statement.bind(.text("*=\(hlc)"), at: 3)
        try statement.bind(.text(hlc), at: 4)
        return statement
      }
      // New records go to their table and to the outbox many rows per statement: a statement
      // run costs more than a row it inserts.
      let width = names.count
      let fixed = [(2, DatabaseValue.text(accountID))] + (dataset.stamp != nil ? [(width, now.databaseValue)] : [])
      let outboxFixed = [(1, DatabaseValue.text(accountID)), (2, .text(dataset.name)), (4, .text(hlc))]
      func statements(rows n: Int) throws -> (insert: Statement, outbox: Statement) {
        let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        let insert = try db.statement(
          "INSERT INTO \(dataset.table) (\(names.joined(separator: ", "))) VALUES "
            + Array(repeating: tuple, count: n).joined(separator: ", "))
        let outbox = try db.statement(
          "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES "
            + Array(repeating: "(?, ?, ?, '*', NULL, ?)", count: n).joined(separator: ", "))
        for slot in 0..<n {
          for (at, value) in fixed { try insert.bind(value, at: Int32(slot * width + at)) }
          for (at, value) in outboxFixed { try outbox.bind(value, at: Int32(slot * 4 + at)) }
        }
        return (insert, outbox)
      }
      let chunk = min(64, records.count)
      let full = try statements(rows: chunk)
      let fullClocks = try clockStatement(rows: chunk)
      var pending: [Int] = []
      pending.reserveCapacity(chunk)
      func flush() throws {
        guard !pending.isEmpty else { return }
        let (insert, outbox) = pending.count == chunk ? full : try statements(rows: pending.count)
        insert.reset()
        outbox.reset()
        for (slot, index) in pending.enumerated() {
          let record = records[index]
          let id = DatabaseValue.text(record.id)
          try insert.bind(id, at: Int32(slot * width + 1))
          for (i, value) in record.values.enumerated() { try insert.bind(value, at: Int32(slot * width + i + 3)) }
          try outbox.bind(id, at: Int32(slot * 4 + 3))
        }
        while try insert.step() {}
        while try outbox.step() {}
        pending.removeAll(keepingCapacity: true)
      }
      var inserted = 0
      // Imports run in time order: most records fall on the same UTC day as the one before.
      let span = dataset.span.map { (dataset.fields.firstIndex(of: $0.start)!, dataset.fields.firstIndex(of: $0.end)!) }
      var days = Set<Int64>()
      var lastDay = ""
      var fresh = Set<String>()
      for first in stride(from: 0, to: records.count, by: chunk) {
        let slice = first..<min(first + chunk, records.count)
        let clocks = slice.count == chunk ? fullClocks : try clockStatement(rows: slice.count)
        clocks.reset()
        for (slot, index) in slice.enumerated() {
          precondition(records[index].values.count == dataset.fields.count, "one value per field of \(dataset.name)")
          try clocks.bind(.text(records[index].id), at: Int32(slot + 5))
        }
        fresh.removeAll(keepingCapacity: true)
        while try clocks.step() { fresh.insert(try clocks.row.get(0, as: String.self)) }
        for index in slice {
          let record = records[index]
          // Each returned id is taken once: an id twice in one import is one record.
          guard fresh.remove(record.id) != nil else { continue }
          pending.append(index)
          if pending.count == chunk { try flush() }
          inserted += 1
          if let (start, end) = span,
            !(Self.isUTC(record.values[start], on: lastDay) && Self.isUTC(record.values[end], on: lastDay))
          {
            days.formUnion(Self.days(start: record.values[start], end: record.values[end]))
            if case .text(let text) = record.values[start],
              Self.isUTC(record.values[start], on: String(text.prefix(10)))
            {
              lastDay = String(text.prefix(10))
            }
          }
        }
      }
      try flush()
      try noteChanged(dataset, days.sorted())
      if inserted > 0 { try journal.note(.import, dataset, id: "", hlc: clock, fields: [], at: now) }
      return inserted
    }
  }

  /// Queues every record held here to be sent again, whole (a new or emptied server account).
  public func requeueAll() throws {
    try db.transaction { db in
      let hlc = try tick().description
      try db.execute("DELETE FROM sync_outbox WHERE account_id = ?", accountID)
      try db.execute(
        """
        INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc)
        SELECT account_id, dataset, row_id, '*', NULL, ? FROM sync_row WHERE account_id = ? ORDER BY dataset, row_id
        """, hlc, accountID)
    }
  }

  // MARK: Remote changes

  /// Merges a record's fields from another replica: each field is taken when its clock is
  /// higher than the one held here. Returns whether anything changed. Sends nothing back.
  ///
  /// Inside a transaction (a page of changes) it writes straight into it; `observeClock: false`
  /// leaves moving the clock to the caller, once per page instead of once per record.
  @discardableResult
  public func apply(
    _ dataset: Dataset, id: String, _ incoming: [String: (value: DatabaseValue, hlc: HLC)],
    untracked: [String: DatabaseValue] = [:], observeClock: Bool = true
  ) throws -> Bool {
    func mergeOne() throws -> Bool {
      let changed = try merge(dataset, id: id, incoming, untracked: untracked, observeClock: observeClock)
      if changed { try clearRefusals(dataset, [id]) }
      return changed
    }
    if db.isInTransaction { return try mergeOne() }
    return try db.transaction { _ in try mergeOne() }
  }

  func merge(
    _ dataset: Dataset, id: String, _ incoming: [String: (value: DatabaseValue, hlc: HLC)],
    untracked: [String: DatabaseValue], observeClock: Bool
  ) throws -> Bool {
    var clocks = try self.clocks(dataset, id)
    let seenBefore = !clocks.isEmpty
    if observeClock, let newest = incoming.values.map(\.hlc).max() { try observe(newest) }
    // `_deleted` is a field like the others: its newest value says whether the record exists.
    // Edits never bring a deleted record back; only a restore (value 0) does.
    var revived = false
    var markerChanged = false
    let state = FieldMerge.deletion(in: clocks)
    if let marker = incoming[FieldMerge.deleted], FieldMerge.wins(marker.hlc, over: state?.hlc) {
      let kind = FieldMerge.Deletion(marker.value)
      for key in [FieldMerge.deleted, FieldMerge.withdrawn, FieldMerge.restored] { clocks[key] = nil }
      clocks[kind.clockKey] = marker.hlc
      markerChanged = true
      if kind == .restored {
        revived = state.map { $0.kind != .restored } ?? false
      } else {
        try noteChanged(dataset, spanDays(dataset, id))
        try db.execute("DELETE FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?", id, accountID)
        try save(dataset, id, clocks)
        return true
      }
    } else if let state, state.kind != .restored {
      return false
    }
    var winners: [String: DatabaseValue] = [:]
    for (field, change) in incoming where dataset.fields.contains(field) {
      if revived || FieldMerge.wins(change.hlc, over: clocks[field]) {
        winners[field] = dataset.stored(field, change.value)
        clocks[field] = change.hlc
      }
    }
    guard !winners.isEmpty else {
      if markerChanged { try save(dataset, id, clocks) }
      return markerChanged
    }
    // Judged before anything is stored: a record that fails its rules is kept out whole, and
    // its clocks stay as they were, so that a valid version of it still applies later.
    let isNew = !seenBefore || revived
    let stored = isNew || dataset.recordRules.isEmpty ? nil : try values(dataset, id, fields: dataset.fields)
    if let fault = dataset.fault(touching: isNew ? nil : Set(winners.keys), { winners[$0] ?? stored?[$0] }) {
      let node = incoming[fault.field]?.hlc.node ?? incoming.values.map(\.hlc).max()?.node ?? ""
      try refuse(dataset, id: id, fault, device: node)
      return false
    }
    if let span = dataset.span {
      var days = seenBefore ? try spanDays(dataset, id) : []
      try store(dataset, id: id, winners, untracked: untracked, probablyNew: !seenBefore || revived)
      if !seenBefore || revived, let start = winners[span.start], let end = winners[span.end] {
        days += Self.days(start: start, end: end)
      } else {
        days += try spanDays(dataset, id)
      }
      try noteChanged(dataset, Set(days))
    } else {
      try store(dataset, id: id, winners, untracked: untracked, probablyNew: !seenBefore || revived)
    }
    try save(dataset, id, clocks)
    return true
  }

  /// Whether this replica holds record `id`'s bytes-bearing row already (blobs).
  public func exists(_ dataset: Dataset, id: String) throws -> Bool {
    try db.scalar(
      Int.self, "SELECT EXISTS (SELECT 1 FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?)", id,
      accountID) == 1
  }

  // MARK: Internals

  /// Updates the row, or inserts it when there is none. `probablyNew` (no clocks seen for it)
  /// tries the insert first: a first sync inserts every row, and one statement beats two.
  func store(
    _ dataset: Dataset, id: String, _ fields: [String: DatabaseValue], untracked: [String: DatabaseValue],
    probablyNew: Bool = false
  ) throws {
    // Sorted, so the same set of columns always makes the same SQL and reuses its statement.
    var columns = (Array(fields) + Array(untracked)).sorted { $0.key < $1.key }
    if let stamp = dataset.stamp { columns.append((stamp, now.databaseValue)) }
    guard !columns.isEmpty else { return }
    func insert() throws {
      let names = [dataset.key, "account_id"] + columns.map { "\"\($0.0)\"" }
      try db.execute(
        "INSERT INTO \(dataset.table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
        arguments: [id, accountID] + columns.map { $0.1 })
    }
    if probablyNew {
      do {
        return try insert()
      } catch let error as StorageError where error.code == 1555 || error.code == 2067 {
        // The row exists after all: update it below.
      }
    }
    let assignments = columns.map { "\"\($0.0)\" = ?" }.joined(separator: ", ")
    let changed = try db.execute(
      "UPDATE \(dataset.table) SET \(assignments) WHERE \(dataset.key) = ? AND account_id = ?",
      arguments: columns.map { $0.1 } + [id, accountID])
    if changed == 0 { try insert() }
  }

  /// This device's node id: 16 hex digits made once per database.
  func node() throws -> String {
    try db.scalar(String.self, "SELECT value FROM meta WHERE key = 'device_id'") ?? "0000000000000000"
  }

  /// The next clock reading, persisted so it never goes back, even across processes.
  func tick() throws -> HLC {
    let last = try db.scalar(String.self, "SELECT value FROM meta WHERE key = 'hlc_last'").flatMap(HLC.init)
    let next = HLC.next(after: last, now: now, node: try node())
    try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('hlc_last', ?)", next.description)
    return next
  }

  /// Moves the clock past a reading seen from elsewhere, so later local writes order after it.
  public func observe(_ seen: HLC) throws {
    let last = try db.scalar(String.self, "SELECT value FROM meta WHERE key = 'hlc_last'").flatMap(HLC.init)
    if let last, last >= seen { return }
    let moved = HLC(milliseconds: seen.milliseconds, counter: seen.counter, node: try node())
    try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('hlc_last', ?)", moved.description)
  }
}
