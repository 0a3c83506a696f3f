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
