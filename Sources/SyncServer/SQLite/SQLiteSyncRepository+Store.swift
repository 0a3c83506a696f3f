import Storage

extension SQLiteSyncRepository {
  /// Writes the merged records, many per statement: one statement per record cost a first push
  /// of 100,000 records a fifth of the server's time, more in running statements than in the
  /// rows they wrote. Each record is in `writes` once, so rows of one statement never meet. New
  /// records are inserted: an upsert looks each key up before inserting it, which the lookup
  /// of the stored records (in this transaction) has done already.
  static func store(_ writes: MergedWrites, userID: String, db: Database) throws {
    let chunk = 64
    let all = writes.ids.indices
    let new = all.filter { writes.isNew[$0] }
    var upserts = all.filter { !writes.isNew[$0] }
    var inserts = BulkInsert(
      db, table: "records", fixed: [("user_id", .text(userID))], varying: ["dataset", "row_id", "fields", "seq"],
      rows: chunk)
    for first in stride(from: 0, to: new.count, by: chunk) {
      let rows = new[first..<min(first + chunk, new.count)]
      do {
        try inserts.insert(rows.count) { slot, column in
          let i = rows[rows.startIndex + slot]
          switch column {
          case 0: return .text(writes.datasets[i])
          case 1: return .text(writes.ids[i])
          case 2: return .text(writes.fields[i])
          default: return .integer(writes.seqs[i])
          }
        }
      } catch let error as StorageError where error.code == 1555 {
        // Stored after all (the statement wrote nothing): these go as the others.
        upserts += rows
      }
    }
    var sql: (rows: Int, text: String)?
    var values: [DatabaseValue] = []
    values.reserveCapacity(chunk * 5)
    for first in stride(from: 0, to: upserts.count, by: chunk) {
      let rows = upserts[first..<min(first + chunk, upserts.count)]
      if sql?.rows != rows.count {
        sql = (
          rows.count,
          "INSERT INTO records (user_id, dataset, row_id, fields, seq) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
            + " ON CONFLICT (user_id, dataset, row_id) DO UPDATE SET fields = excluded.fields, seq = excluded.seq"
        )
      }
      values.removeAll(keepingCapacity: true)
      for i in rows {
        values += [
          .text(userID), .text(writes.datasets[i]), .text(writes.ids[i]), .text(writes.fields[i]),
          .integer(writes.seqs[i]),
        ]
      }
      try db.execute(sql!.text, values: values)
    }
  }
}
