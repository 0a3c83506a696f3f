import Storage

extension SQLiteSyncRepository {
  /// Writes the merged records, many per statement: one statement per record cost a first push
  /// of 100,000 records a fifth of the server's time, more in running statements than in the
  /// rows they wrote. Each record is in `writes` once, so rows of one statement never meet.
  static func store(_ writes: MergedWrites, userID: String, db: Database) throws {
    let chunk = 64
    var sql: (rows: Int, text: String)?
    var values: [DatabaseValue] = []
    values.reserveCapacity(chunk * 5)
    for first in stride(from: 0, to: writes.ids.count, by: chunk) {
      let rows = first..<min(first + chunk, writes.ids.count)
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
