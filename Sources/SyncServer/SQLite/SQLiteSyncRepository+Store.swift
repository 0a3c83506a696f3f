import Storage

extension SQLiteSyncRepository {
  /// Writes the merged records, many per statement: one statement per record cost a first push
  /// of 100,000 records a fifth of the server's time, more in running statements than in the
  /// rows they wrote. Each record is in `writes` once, so rows of one statement never meet. New
  /// records are inserted: an upsert looks each key up before inserting it, which the lookup
  /// of the stored records (in this transaction) has done already.
  static func store(_ writes: MergedWrites, userID: String, db: Database) throws {
    let chunk = 64
    func statement(then tail: String = "") -> BulkInsert {
      BulkInsert(
        db, table: "records", fixed: [("user_id", .text(userID))], varying: ["dataset", "row_id", "fields", "seq"],
        rows: chunk, then: tail)
    }
    func write(_ rows: ArraySlice<Int>, with statement: inout BulkInsert) throws {
      try statement.insert(rows.count) { slot, column in
        let i = rows[rows.startIndex + slot]
        switch column {
        case 0: return .text(writes.datasets[i])
        case 1: return .text(writes.ids[i])
        case 2: return .text(writes.fields[i])
        default: return .integer(writes.seqs[i])
        }
      }
    }
    let new = writes.ids.indices.filter { writes.isNew[$0] }
    var stored = writes.ids.indices.filter { !writes.isNew[$0] }
    var inserts = statement()
    for first in stride(from: 0, to: new.count, by: chunk) {
      let rows = new[first..<min(first + chunk, new.count)]
      do {
        try write(rows, with: &inserts)
      } catch let error as StorageError where error.code == 1555 {
        // Stored after all (the statement wrote nothing): these go with the others.
        stored += rows
      }
    }
    var upserts = statement(
      then: "ON CONFLICT (user_id, dataset, row_id) DO UPDATE SET fields = excluded.fields, seq = excluded.seq")
    for first in stride(from: 0, to: stored.count, by: chunk) {
      try write(stored[first..<min(first + chunk, stored.count)], with: &upserts)
    }
  }
}
