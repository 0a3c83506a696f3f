import Foundation
import Replication
import Storage

extension DonationStore {
  /// Reads the whole file, checks every row, then writes all of it in one transaction: new
  /// donations in bulk through the synced write path, changed ones field by field. A large
  /// file is read and checked in pieces at once, one per core.
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
    let rows = try Self.read(pieces, DonationCSVParser(columns: header.fields.count, now: now, calendar: calendar))
    let scheduledRows = rows.filter { $0.donation.status == .scheduled }
    if scheduledRows.count > 1 {
      throw ImportError.row(line: scheduledRows[1].line, "only one appointment can be scheduled at a time")
    }

    var summary = ImportSummary()
    try db.keepJournalsInMemory()
    try db.transaction { db in
      if let row = scheduledRows.first, let current = try scheduled(), current.id != row.donation.id {
        throw ImportError.row(
          line: row.line, "you already have a scheduled appointment (\(current.id.prefix(8))); cancel it first")
      }
      var stored: [String: Donation] = [:]
      try db.forEachRow("SELECT \(Self.columns) FROM donation WHERE account_id = ?", account.id) { row in
        let donation = try Self.donation(row)
        stored[donation.id] = donation
      }
      var new: [(id: String, values: [DatabaseValue])] = []
      new.reserveCapacity(rows.count)
      for row in rows {
        summary.rows += 1
        guard let old = stored[row.donation.id] else {
          new.append((row.donation.id, row.values))
          continue
        }
        var donation = row.donation
        if !withVitals { donation.vitals = old.vitals }
        if old == donation {
          summary.unchanged += 1
        } else {
          try update(donation, from: old)
          summary.updated += 1
        }
      }
      // In id order the keys of `donation` and `sync_row` grow as they are written: each insert
      // lands on the page the last one did, instead of a random page of a table larger than the
      // cache (ids are random UUIDs).
      new.sort { $0.id < $1.id }
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

  /// Every row of `pieces`, checked on as many threads, in file order. The error is the one a
  /// read from the top meets first: a bad row, or an id already seen above it.
  static func read(_ pieces: consuming [[CSV.Record]], _ parser: DonationCSVParser) throws -> [ImportRow] {
    let read = try pieces.concurrentMap { (records: consuming [CSV.Record]) -> ([ImportRow], (any Error)?) in
      var rows: [ImportRow] = []
      rows.reserveCapacity(records.count)
      for record in records {
        do {
          let donation = try parser.donation(record)
          rows.append(ImportRow(line: record.line, donation: donation, values: values(donation)))
        } catch {
          return (rows, error)
        }
      }
      return (rows, nil)
    }
    var rows: [ImportRow] = []
    rows.reserveCapacity(read.reduce(0) { $0 + $1.0.count })
    var seen: [String: Int] = [:]
    seen.reserveCapacity(rows.capacity)
    for (piece, failure) in read {
      for row in piece {
        if let first = seen.updateValue(row.line, forKey: row.donation.id) {
          throw ImportError.row(line: row.line, "id \(row.donation.id) appears again (first on line \(first))")
        }
        rows.append(row)
      }
      if let failure { throw failure }
    }
    return rows
  }
}
