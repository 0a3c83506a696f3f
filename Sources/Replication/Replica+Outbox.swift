import Foundation
import Storage

/// What waits to be sent: read in order, acknowledged once the server has it.
extension Replica {
  public struct Pending: Sendable {
    public let seq: Int64
    public let dataset: String
    public let id: String
    public let field: String
    public let value: DatabaseValue
    public let hlc: HLC
    /// A whole record whose every field has clock `hlc`, read as one entry (field `*`) when
    /// asked for (`pending(compact:)`): its fields' names in name order, and their values. An
    /// entry per field cost a first push of 100,000 imported records 1.1 million entries, each
    /// made, counted, grouped and freed.
    public var whole: (names: [String], values: [DatabaseValue])? = nil

    /// Each field this entry carries, in name order, with its value: its own, or every field of
    /// a whole record.
    @inlinable
    public func forEachField(_ body: (_ field: String, _ value: DatabaseValue) throws -> Void) rethrows {
      guard let whole else { return try body(field, value) }
      for index in whole.names.indices { try body(whole.names[index], whole.values[index]) }
    }
  }

  /// The oldest `limit` outbox entries (after `seq`, when given); a whole-record entry becomes one
  /// entry per field of its dataset in `datasets`, each with the value and clock the record holds now.
  /// Reading stops once `full` says the entries so far are enough (it is handed those of each
  /// outbox entry read): a whole record costs two reads, and a batch may take far fewer.
  /// `compact`: a whole record whose fields all have one clock stays one entry (`whole`).
  public func pending(
    limit: Int, after seq: Int64 = 0, in datasets: [Dataset], compact: Bool = false,
    until full: (ArraySlice<Pending>) -> Bool = { _ in false }
  ) throws -> [Pending] {
    var entries: [Pending] = []
    var records = WholeRecords()
    // The entries of a record written at once share its id and clock: read once, kept for the run.
    var last: Pending?
    var lastClock = ""
    try db.scanRows(
      """
      SELECT o.seq, o.dataset, o.row_id, o.field, o.value, o.hlc FROM sync_outbox o
      WHERE o.account_id = ? AND o.seq > ? ORDER BY o.seq LIMIT ?
      """,
      accountID, seq, limit
    ) { row in
      let clock = try row.text(5, sameAs: lastClock)
      let hlc: HLC
      if let previous = last?.hlc, clock == lastClock {
        hlc = previous
      } else {
        guard let read = HLC(clock) else {
          throw StorageError.typeMismatch(column: "hlc", expected: "a clock reading", sql: nil)
        }
        hlc = read
        lastClock = clock
      }
      let entry = Pending(
        seq: try row.get(0), dataset: try row.text(1, sameAs: last?.dataset), id: try row.text(2, sameAs: last?.id),
        field: try row.get(3), value: row[4], hlc: hlc)
      last = entry
      let start = entries.count
      try expand(entry, in: datasets, compact: compact, records: &records, into: &entries)
      return !full(entries[start...])
    }
    return entries
  }

  /// What reads whole records and their clocks for `pending`, kept for one read of the outbox.
  struct WholeRecords {
    /// Each dataset's records (their fields in name order) and their clocks.
    var cursors: [String: (values: RecordCursor, clocks: RecordCursor)] = [:]
    var shared = SharedClock()
    var lastClocks: String?
  }

  /// Appends an outbox entry as sent: itself, or for a whole-record entry one per field of the
  /// record (or its tombstone), given its stored clocks; `compact`, one entry for a record whose
  /// fields share a clock.
  private func expand(
    _ entry: Pending, in datasets: [Dataset], compact: Bool, records: inout WholeRecords,
    into expanded: inout [Pending]
  ) throws {
    guard entry.field == "*", let dataset = datasets.named(entry.dataset) else {
      expanded.append(entry)
      return
    }
    let cursors: (values: RecordCursor, clocks: RecordCursor)
    if let known = records.cursors[dataset.name] {
      cursors = known
    } else {
      let account = (column: "account_id", value: DatabaseValue.text(accountID))
      cursors = (
        try RecordCursor(
          dataset.table, key: dataset.key, columns: dataset.namesInOrder.map { "\"\($0)\"" }, filter: [account],
          in: db),
        try RecordCursor(
          "sync_row", key: "row_id", columns: ["clocks"], filter: [account, ("dataset", .text(dataset.name))], in: db)
      )
      records.cursors[dataset.name] = cursors
    }
    // Read as the String before when the bytes are the same: `shared` then knows it at once.
    let lastClocks = records.lastClocks
    let text = try cursors.clocks.row(entry.id) { try $0.text(1, sameAs: lastClocks) }
    records.lastClocks = text ?? lastClocks
    let values = try cursors.values.row(entry.id) { row in (1..<row.count).map { row[$0] } }
    if let values, let text, let hlc = records.shared.reading(text) {
      // Written whole and never since (an import): every field has the one clock.
      if compact {
        expanded.append(
          Pending(
            seq: entry.seq, dataset: entry.dataset, id: entry.id, field: "*", value: .null, hlc: hlc,
            whole: (dataset.namesInOrder, values)))
        return
      }
      for (index, field) in dataset.namesInOrder.enumerated() {
        expanded.append(
          Pending(seq: entry.seq, dataset: entry.dataset, id: entry.id, field: field, value: values[index], hlc: hlc))
      }
      return
    }
    let clocks = text.map { Self.clocks(of: dataset, from: $0) } ?? [:]
    guard let values else {
      // Deleted: the tombstone travels (requeued records include deleted ones; a record
      // forgotten as a cache has no tombstone and is not sent).
      guard let state = FieldMerge.deletion(in: clocks), state.kind != .restored else { return }
      expanded.append(
        Pending(
          seq: entry.seq, dataset: entry.dataset, id: entry.id, field: FieldMerge.deleted, value: state.kind.value,
          hlc: state.hlc))
      return
    }
    if let restored = clocks[FieldMerge.restored] {
      expanded.append(
        Pending(
          seq: entry.seq, dataset: entry.dataset, id: entry.id, field: FieldMerge.deleted,
          value: FieldMerge.Deletion.restored.value, hlc: restored))
    }
    for (index, field) in dataset.namesInOrder.enumerated() {
      expanded.append(
        Pending(
          seq: entry.seq, dataset: entry.dataset, id: entry.id, field: field, value: values[index],
          hlc: clocks[field] ?? entry.hlc))
    }
  }

  public func pendingCount() throws -> Int {
    try db.scalar(Int.self, "SELECT count(*) FROM sync_outbox WHERE account_id = ?", accountID) ?? 0
  }

  /// Drops outbox entries up to `seq`: the server has them.
  public func acknowledge(upTo seq: Int64) throws {
    try db.execute("DELETE FROM sync_outbox WHERE account_id = ? AND seq <= ?", accountID, seq)
  }

  /// Drops the first `count` outbox entries after `seq`: those a push read and found to send
  /// nothing (whole records gone without a tombstone). Entries are only ever added after them
  /// meanwhile, so the first `count` are the ones read.
  public func dropFromOutbox(after seq: Int64, count: Int) throws {
    try db.execute(
      """
      DELETE FROM sync_outbox WHERE seq IN (
        SELECT seq FROM sync_outbox WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?)
      """, accountID, seq, count)
  }
}
