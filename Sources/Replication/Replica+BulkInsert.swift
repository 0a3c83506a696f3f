import Foundation
import Storage

extension Replica {
  /// Inserts records that may be new, in bulk (an import): one clock reading for the batch and
  /// one outbox entry per record (field `*`: the whole record, read when it is sent). A record
  /// this replica has seen before, even deleted, is left alone. Returns how many were inserted.
  /// `values` follow `dataset.fields`. Called inside a transaction, it is part of it: a failure
  /// may leave some of the records written there, for the caller to roll back.
  public func insertNew(_ dataset: Dataset, _ records: [(id: String, values: [DatabaseValue])]) throws -> Int {
    guard !records.isEmpty else { return 0 }
    let check = try BackgroundCheck(dataset, records)
    do {
      return try insertNew(dataset, records, checked: check)
    } catch {
      // A value the check refuses may have failed SQLite's constraint first: the check says more.
      try check.wait()
      throw error
    }
  }

  private func insertNew(
    _ dataset: Dataset, _ records: [(id: String, values: [DatabaseValue])], checked check: BackgroundCheck
  ) throws -> Int {
    // Inside an import's transaction, a failure here fails the whole import.
    return try db.transactionOrPart { db in
      let clock = try tick()
      let hlc = clock.description
      let names = [dataset.key, "account_id"] + dataset.fields.map { "\"\($0)\"" } + [dataset.stamp].compactMap { $0 }
      // Statements prepared once and bound with what stays the same once: per record only the
      // id and the values are bound (imports insert millions).
      // A record whose import an undo took back comes back when imported again; one deleted by
      // hand stays deleted. The clocks go in many per statement, a plain insert first: a record
      // with clocks here fails it (which then wrote nothing), and only then does the statement
      // that takes such records back (RETURNING the ids new or back) run. An upsert looks each
      // key up before inserting it, and returning the ids cost a first import a tenth of its
      // time more, when every record is new.
      func clockStatement(rows n: Int, upsert: Bool) throws -> Statement {
        let statement = try db.statement(
          "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES "
            + (0..<n).map { "(?1, ?2, ?\($0 + 5), ?3)" }.joined(separator: ", ")
            + (upsert
              ? """

              ON CONFLICT (account_id, dataset, row_id) DO UPDATE SET clocks = ?3 || ';\(FieldMerge.restored)=' || ?4
              WHERE sync_row.clocks LIKE '%\(FieldMerge.withdrawn)=%'
              RETURNING row_id
              """ : ""))
        try statement.bind(.text(accountID), at: 1)
        try statement.bind(.text(dataset.name), at: 2)
        try statement.bind(.text("*=\(hlc)"), at: 3)
        if upsert { try statement.bind(.text(hlc), at: 4) }
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
      let fullClocks = try clockStatement(rows: chunk, upsert: false)
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
          try insert.bindUntilReset(id, at: Int32(slot * width + 1))
          for (i, value) in record.values.enumerated() {
            try insert.bindUntilReset(value, at: Int32(slot * width + i + 3))
          }
          try outbox.bindUntilReset(id, at: Int32(slot * 4 + 3))
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
      var returned: [String] = []
      for first in stride(from: 0, to: records.count, by: chunk) {
        let slice = first..<min(first + chunk, records.count)
        func run(_ clocks: Statement) throws {
          clocks.reset()
          for (slot, index) in slice.enumerated() {
            if records[index].values.count != dataset.fields.count {
              // The check refuses a record of the wrong shape, maybe not yet: its error is the one thrown.
              try check.wait()
              preconditionFailure("one value per field of \(dataset.name)")
            }
            try clocks.bindUntilReset(.text(records[index].id), at: Int32(slot + 5))
          }
          returned.removeAll(keepingCapacity: true)
          while try clocks.step() { returned.append(try clocks.row.get(0, as: String.self)) }
        }
        // Every id of the slice new (the usual import into a home without them): no two are
        // the same, since a second one would have met the first.
        var all = true
        do {
          try run(slice.count == chunk ? fullClocks : try clockStatement(rows: slice.count, upsert: false))
        } catch let error as StorageError where error.code == 1555 {
          try run(try clockStatement(rows: slice.count, upsert: true))
          all = returned.count == slice.count
        }
        if !all { fresh = Set(returned) }
        for index in slice {
          let record = records[index]
          // Each returned id is taken once: an id twice in one import is one record.
          guard all || fresh.remove(record.id) != nil else { continue }
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
      // Before the transaction ends: a batch with a fault leaves nothing.
      try check.wait()
      try noteChanged(dataset, days.sorted())
      if inserted > 0 { try journal.note(.import, dataset, id: "", hlc: clock, fields: [], at: now) }
      return inserted
    }
  }
}
