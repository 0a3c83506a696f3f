import Cryptography
import Foundation
import Records
import Replication
import Storage

/// Puts records of one dataset into an account as an import does, through the synced write
/// path: new ones in bulk, changed ones field by field, equal ones left alone, ones deleted here
/// left deleted. `finish()` writes what is still pending.
struct RecordMerge {
  let dataset: Dataset
  /// The columns each record gives values for, in order: some or all of `dataset.fields` and
  /// `dataset.local`.
  let columns: [String]
  private let replica: Replica
  private let db: Database
  private let slots: [Int?]
  /// What a new record gets for a field the import does not give: the column's default (a field
  /// added after the file was written), else NULL.
  private let defaults: [String: DatabaseValue]
  private let local: Set<String>
  private let empty: Bool
  private let select: String
  /// Records that need a write of their own: with local columns (bytes), or the profile.
  private let oneByOne: Bool
  private var pending: [(id: String, values: [DatabaseValue])] = []
  /// The ids met so far: one record named twice is a file edited by hand, not two records.
  private var seen = Set<String>()
  private(set) var part: RecordArchive.ImportSummary.Part

  init(_ dataset: Dataset, columns: [String], replica: Replica, oneByOne: Bool = false) throws {
    self.dataset = dataset
    self.columns = columns
    self.replica = replica
    db = replica.db
    slots = dataset.fields.map { columns.firstIndex(of: $0) }
    local = Set(dataset.local)
    self.oneByOne = oneByOne || !dataset.local.isEmpty
    // An account with none of these records yet (a fresh home) needs no look-up per record.
    empty =
      try db.scalar(
        Int.self, "SELECT EXISTS (SELECT 1 FROM \(dataset.table) WHERE account_id = ?)", replica.accountID) == 0
    defaults = Dictionary(
      uniqueKeysWithValues: try db.query(
        "SELECT name, dflt_value FROM pragma_table_info(?) WHERE dflt_value IS NOT NULL", dataset.table
      ) { row in (try row.get(0, as: String.self), Self.literal(try row.get(1, as: String.self))) })
    select =
      "SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?"
    part = .init(dataset: dataset.name)
  }

  /// `values` follow `columns`; a new record takes the fields not among them from `rest`.
  mutating func put(id: String, _ values: [DatabaseValue], rest: [String: DatabaseValue] = [:]) throws {
    precondition(values.count == columns.count, "one value per column")
    part.records += 1
    guard seen.insert(id).inserted else {
      throw ArchiveError.invalidRecord(dataset: dataset.name, id: id, "the same id appears twice")
    }
    // A blob is named by its bytes' SHA-256: any other name is a blob some other file claims.
    if dataset.key == "sha256", let slot = columns.firstIndex(of: "data"), case .blob(let bytes) = values[slot],
      Crypto.sha256Hex(bytes) != id
    {
      throw ArchiveError.invalidRecord(dataset: dataset.name, id: id, "its id is not the SHA-256 of its bytes")
    }
    let stored =
      empty && !oneByOne
      ? nil
      : try db.queryFirst(select, id, replica.accountID) { row in
        (0..<columns.count).map { row[$0] }
      }
    if let stored {
      var changed: [String: DatabaseValue] = [:]
      var untracked: [String: DatabaseValue] = [:]
      for (i, column) in columns.enumerated() where stored[i] != values[i] {
        if local.contains(column) { untracked[column] = values[i] } else { changed[column] = values[i] }
      }
      if changed.isEmpty && untracked.isEmpty {
        part.unchanged += 1
      } else {
        try replica.write(dataset, id: id, changed, untracked: untracked)
        part.updated += 1
      }
    } else if oneByOne {
      var fields: [String: DatabaseValue] = [:]
      var untracked: [String: DatabaseValue] = [:]
      for (column, value) in rest where dataset.fields.contains(column) { fields[column] = value }
      for (i, column) in columns.enumerated() {
        if local.contains(column) { untracked[column] = values[i] } else { fields[column] = values[i] }
      }
      try replica.write(dataset, id: id, fields, untracked: untracked)
      part.inserted += 1
    } else {
      pending.append(
        (
          id,
          zip(dataset.fields, slots).map { field, slot in
            slot.map { values[$0] } ?? rest[field] ?? defaults[field] ?? .null
          }
        ))
      if pending.count == 4096 { try finish() }
    }
  }

  /// A column default as SQLite keeps it: an integer or a quoted string (Vital's tables use no
  /// other kind).
  static func literal(_ sql: String) -> DatabaseValue {
    if let integer = Int64(sql) { return .integer(integer) }
    if sql.count >= 2, sql.hasPrefix("'"), sql.hasSuffix("'") {
      return .text(String(sql.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
    }
    return .null
  }

  mutating func finish() throws {
    guard !pending.isEmpty else { return }
    let inserted = try replica.insertNew(dataset, pending)
    part.inserted += inserted
    part.keptDeleted += pending.count - inserted
    pending.removeAll(keepingCapacity: true)
  }
}
