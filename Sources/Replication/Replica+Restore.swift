import Foundation
import Storage

/// Taking changes back: a deleted record restored, an import withdrawn. Both are ordinary
/// changes that travel as the `_deleted` field (docs/sync-protocol.md, "The merge rule").
extension Replica {
  var journal: ChangeJournal { ChangeJournal(db: db, accountID: accountID) }

  /// The stored values of `fields` of record `id`, or nil when there is no such row.
  func values(_ dataset: Dataset, _ id: String, fields: [String]) throws -> [String: DatabaseValue]? {
    guard !fields.isEmpty else {
      return try exists(dataset, id: id) ? [:] : nil
    }
    let columns = fields.map { "\"\($0)\"" }.joined(separator: ", ")
    return try db.queryFirst(
      "SELECT \(columns) FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?", id, accountID
    ) { row in
      Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($0.element, row[$0.offset]) })
    }
  }

  /// The fields of record `id` that were ever written (here or on a device it synced with).
  public func written(_ dataset: Dataset, id: String) throws -> Set<String> {
    Set(try clocks(dataset, id).keys.filter { dataset.fields.contains($0) })
  }

  /// Whether record `id` is deleted here (by hand, or withdrawn with its import).
  public func isDeleted(_ dataset: Dataset, id: String) throws -> Bool {
    guard let state = FieldMerge.deletion(in: try clocks(dataset, id)) else { return false }
    return state.kind != .restored
  }

  /// Brings a deleted record back with `fields`: every field of the dataset, as the record held
  /// them when it was deleted here (the undo journal keeps them). A field last written here
  /// keeps its clock, so an earlier change here can still be undone; one another device wrote
  /// takes the restore's clock: its edit may have arrived while the record was gone here, as a
  /// clock without its value, and this device would otherwise hold the old value under the
  /// other's clock and never agree with it. `_deleted` goes out as 0, newer than the delete, so
  /// every device restores it, with these values.
  public func restore(_ dataset: Dataset, id: String, _ fields: [String: DatabaseValue]) throws {
    precondition(Set(fields.keys) == Set(dataset.fields), "a restore names every field of \(dataset.name)")
    try db.transaction { db in
      let hlc = try tick()
      try journal.note(.restore, dataset, id: id, hlc: hlc, fields: dataset.fields, at: now)
      try db.execute("DELETE FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?", id, accountID)
      try store(dataset, id: id, fields, untracked: [:])
      if dataset.span != nil { try noteChanged(dataset, spanDays(dataset, id)) }
      var clocks = try self.clocks(dataset, id)
      for key in [FieldMerge.deleted, FieldMerge.withdrawn] { clocks[key] = nil }
      clocks[FieldMerge.restored] = hlc
      for field in dataset.fields where clocks[field]?.node != hlc.node { clocks[field] = hlc }
      try save(dataset, id, clocks)
      try db.execute(
        "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, ?, ?, '*', NULL, ?)",
        accountID, dataset.name, id, hlc.description)
    }
  }

  /// Takes back the records bulk inserts stamped with one of `clocks` and that nothing changed
  /// since: they are deleted with `_deleted` = 2, so importing them again brings them back (a
  /// delete by hand stays). One pass over the dataset's clocks, however many batches the import
  /// wrote. Returns how many.
  public func withdraw(_ dataset: Dataset, importedAt batches: Set<String>) throws -> Int {
    try db.transaction { db in
      // Every field still as the import wrote it (a record deleted and restored since counts).
      var found: [(id: String, clock: Substring)] = []
      try db.forEachRow(
        "SELECT row_id, clocks FROM sync_row WHERE account_id = ? AND dataset = ?", accountID, dataset.name
      ) { row in
        let text = try row.get(1, as: String.self)
        guard text.hasPrefix("*=") else { return }
        let rest = text.dropFirst(2)
        let clock = rest.prefix { $0 != ";" }
        let tail = rest.dropFirst(clock.count)
        guard batches.contains(String(clock)), tail.isEmpty || tail.hasPrefix(";\(FieldMerge.restored)="),
          !tail.dropFirst().contains(";")
        else { return }
        found.append((try row.get(0, as: String.self), clock))
      }
      guard !found.isEmpty else { return 0 }
      let clock = try tick()
      try journal.note(.withdraw, dataset, id: "", hlc: clock, fields: [], at: now)
      var days = Set<Int64>()
      for (id, imported) in found {
        days.formUnion(try spanDays(dataset, id))
        try db.execute("DELETE FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?", id, accountID)
        try db.execute(
          "UPDATE sync_row SET clocks = ? WHERE account_id = ? AND dataset = ? AND row_id = ?",
          "*=\(imported);\(FieldMerge.withdrawn)=\(clock)", accountID, dataset.name, id)
        try db.execute(
          "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, ?, ?, ?, ?, ?)",
          accountID, dataset.name, id, FieldMerge.deleted, FieldMerge.Deletion.withdrawn.value, clock.description)
      }
      try noteChanged(dataset, days.sorted())
      return found.count
    }
  }
}
