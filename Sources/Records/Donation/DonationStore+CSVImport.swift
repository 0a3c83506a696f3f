import Foundation
import Replication
import Storage

extension DonationStore {
  /// Reads the whole file, checks every row, then writes all of it in one transaction: new
  /// donations in bulk through the synced write path, changed ones field by field. A large
  /// file is read and checked in pieces at once, one per core, and written with a rollback
  /// journal when nothing else has the database open (`Database.withRollbackJournal`).
  public func importCSV(_ data: Data) throws -> ImportSummary {
    var pieces: [[CSV.Record]]
    do {
      pieces = try CSV.parse(data, pieces: ProcessInfo.processInfo.activeProcessorCount)
    } catch let error as CSV.ParseError {
      throw ImportError.csv(error)
    }
    // The first record: blank lines may fill the first piece.
    let first = pieces.firstIndex { !$0.isEmpty }
    guard let first, case let header = pieces[first][0],
      header.fields == Self.csvHeader || header.fields == Self.csvHeaderBeforeVitals
    else {
      throw ImportError.header(columns: first.map { pieces[$0][0].fields.count } ?? 0)
    }
    let withVitals = header.fields.count == Self.csvHeader.count
    pieces[first].removeFirst()
    let read = try Self.read(
      consume pieces, DonationCSVParser(columns: header.fields.count, now: now, calendar: calendar))
    // Read in place: a copy of each row (a dozen texts to retain) cost the import a tenth of its time.
    var scheduledRows: [ImportRow] = []
    for piece in read.rows {
      piece.withUnsafeBufferPointer { rows in
        for index in rows.indices where rows[index].donation.status == .scheduled { scheduledRows.append(rows[index]) }
      }
    }
    if scheduledRows.count > 1 {
      throw ImportError.row(line: scheduledRows[1].line, "only one appointment can be scheduled at a time")
    }

    try db.keepJournalsInMemory()
    let count = read.rows.reduce(0) { $0 + $1.count }
    guard count >= Self.rebuildIndexesFrom else {
      return try write(read, count: count, withVitals: withVitals, appointment: scheduledRows.first)
    }
    let summary = try db.withRollbackJournal {
      try write(read, count: count, withVitals: withVitals, appointment: scheduledRows.first)
    }
    releaseInBackground(consume read)
    return summary
  }

  /// Writes the checked rows in one transaction: changed donations field by field, new ones in bulk.
  private func write(_ read: Read, count: Int, withVitals: Bool, appointment: ImportRow?) throws -> ImportSummary {
    var summary = ImportSummary()
    try db.transaction { db in
      if let row = appointment, let current = try scheduled(), current.id != row.donation.id {
        throw ImportError.row(
          line: row.line, "you already have a scheduled appointment (\(current.id.prefix(8))); cancel it first")
      }
      var stored: [String: Donation] = [:]
      try db.forEachRow("SELECT \(Self.columns) FROM donation WHERE account_id = ?", account.id) { row in
        let donation = try Self.donation(row)
        stored[donation.id] = donation
      }
      summary.rows = count
      // Rows of records stored already, in file order.
      for piece in read.rows where !stored.isEmpty {
        try piece.withUnsafeBufferPointer { rows in
          for index in rows.indices {
            guard let old = stored[rows[index].donation.id] else { continue }
            var donation = rows[index].donation
            if !withVitals { donation.vitals = old.vitals }
            if old == donation {
              summary.unchanged += 1
            } else {
              try update(donation, from: old)
              summary.updated += 1
            }
          }
        }
      }
      // New records in id order (`IDOrder`).
      var new: [(id: String, values: [DatabaseValue])] = []
      new.reserveCapacity(count)
      IDOrder.merge(read.order, id: { read.rows[$0][$1].donation.id }) { piece, index in
        let id = read.rows[piece][index].donation.id
        if stored.isEmpty || stored[id] == nil { new.append((id, read.rows[piece][index].values)) }
      }
      // Many more new rows than stored ones: one sort for the date index after beats keeping
      // it in order row by row (rows come in id order, so each goes to a random page of it).
      if new.count >= Self.rebuildIndexesFrom && new.count > stored.count {
        summary.inserted = try db.withIndexesBuiltAfter(on: "donation") { try replica.insertNew(.donation, new) }
      } else {
        summary.inserted = try replica.insertNew(.donation, new)
      }
      summary.keptDeleted = new.count - summary.inserted
    }
    return summary
  }

  /// From how many new rows an import builds the table's indexes after inserting them.
  static let rebuildIndexesFrom = 10_000

  /// A checked row, with the values a new donation is inserted with.
  struct ImportRow: Sendable {
    let line: Int
    let donation: Donation
    let values: [DatabaseValue]
  }

  /// The checked rows of a file, piece by piece, and each piece's places in id order.
  struct Read: Sendable {
    var rows: [[ImportRow]]
    var order: [[IDOrder.Key]]
  }

  /// Every row of `pieces`, checked on as many threads, piece by piece in file order, and each
  /// piece sorted by id there. The error is the one a read from the top meets first: a bad row,
  /// or an id already seen above it.
  static func read(_ pieces: consuming [[CSV.Record]], _ parser: DonationCSVParser) throws -> Read {
    // Each piece is read up to its first problem, with its ids and their lines, on its thread.
    let read = try pieces.concurrentMap { (records: consuming [CSV.Record]) -> Piece in
      var piece = Piece()
      piece.rows.reserveCapacity(records.count)
      piece.lines.reserveCapacity(records.count)
      var keys: [IDOrder.Key] = []
      keys.reserveCapacity(records.count)
      for record in records {
        do {
          let donation = try parser.donation(record)
          if let first = piece.lines.updateValue(record.line, forKey: donation.id) {
            throw ImportError.row(line: record.line, "id \(donation.id) appears again (first on line \(first))")
          }
          keys.append(IDOrder.key(donation.id, at: piece.rows.count))
          piece.rows.append(ImportRow(line: record.line, donation: donation, values: values(donation)))
        } catch {
          piece.failure = error
          break
        }
      }
      piece.order = IDOrder.sorted(keys) { [rows = piece.rows] in rows[$0].donation.id }
      return piece
    }
    // Then, from the top, ids that an earlier piece had: every earlier piece was read whole (or
    // its problem thrown), so at most one of them has the id.
    for (index, piece) in read.enumerated() {
      let earlier = read[..<index]
      for row in piece.rows.indices where !earlier.isEmpty {
        let (id, line) = (piece.rows[row].donation.id, piece.rows[row].line)
        if let first = earlier.lazy.compactMap({ $0.lines[id] }).first {
          throw ImportError.row(line: line, "id \(id) appears again (first on line \(first))")
        }
      }
      if let failure = piece.failure { throw failure }
    }
    return Read(rows: read.map(\.rows), order: read.map(\.order))
  }

  /// The rows of one piece up to its first problem, and the line of each id.
  private struct Piece: Sendable {
    var rows: [ImportRow] = []
    var order: [IDOrder.Key] = []
    var lines: [String: Int] = [:]
    var failure: (any Error)?
  }
}
