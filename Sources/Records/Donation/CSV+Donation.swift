import Core
import Foundation
import Replication
import Storage

/// Donation history as CSV: `id,kind,status,scheduled_at,completed_at,place,notes` and the
/// measurements `hb_g_dl,ferritin_ng_ml,bp_systolic,bp_diastolic,pulse_bpm`, date-times in ISO
/// 8601 with the local offset. Import is all or nothing and idempotent by id; files written
/// before the measurements existed (seven columns) still import and leave stored ones alone.
extension DonationStore {
  /// A donation's columns, as its shape lists them.
  public static let csvHeader = Donation.shape.columns.map(\.name)
  /// The seven columns files written before the measurements existed have.
  static let csvHeaderBeforeVitals = Array(csvHeader.prefix(7))

  /// Writes every donation, newest first (ties by id), to `write` in chunks of about a megabyte.
  /// Rows go from SQLite's buffers to the output without becoming Swift strings. Returns how many.
  ///
  /// The table is read in the order it is stored and the lines sorted here: read in date order
  /// through the index, each row was a seek to a random page when the rows came in another order
  /// than their dates (an import of another program's file), and that took most of the export.
  @discardableResult
  public func exportCSV(write: @escaping ([UInt8]) throws -> Void) throws -> Int {
    let times = LocalTimeFormatter(timeZone: calendar.timeZone)
    // Buffers sized once: grown by doubling, the rows' text was copied again at each step, and
    // each larger buffer came from fresh pages (a 100,000-row export faulted in some 90 MB).
    let expected = try db.scalar(Int.self, "SELECT count(*) FROM donation WHERE account_id = ?", account.id) ?? 0
    var lines = CSVWriter(collecting: 1 << 16)
    var keys: [UInt8] = []
    keys.reserveCapacityInHugePages(expected * 64)
    var rows: [ExportLine] = []
    rows.reserveCapacityInHugePages(expected)
    let dateColumn = Int32(Self.csvHeader.count)
    // Each page of the table is read once: 2 MiB of cache, reused, rather than 32 MiB of fresh
    // pages the process faults in one by one (some 6,000 of them for 100,000 rows).
    try db.withPageCache(kibibytes: 2048) {
      try db.forEachRow(
        "SELECT \(Self.columns), coalesce(completed_at, scheduled_at) FROM donation NOT INDEXED WHERE account_id = ?",
        account.id
      ) { row in
        if rows.count == 256, expected > 256 {
          // The first rows' mean length, with room to spare, for all of them; at most 256 MiB
          // ahead, so that first rows with long notes cannot ask for more than the export needs.
          lines.reserve(min(lines.bytes.count / 256 * expected * 5 / 4, 1 << 28))
        }
        let start = lines.bytes.count
        for column in 0..<Self.csvHeader.count {
          row.withUTF8(column) { text in
            guard column == 3 || column == 4, let text, !text.isEmpty else { return lines.field(text) }
            lines.rawField { out in
              // Text not in the stored form is written as it is rather than lost.
              if !times.appendLocal(stored: text, to: &out) { out.append(contentsOf: text) }
            }
          }
        }
        try lines.endRecord()
        var prefix = (UInt64(0), UInt64(0))
        let date = row.withUTF8(Int(dateColumn)) { text -> Range<Int>? in
          guard let text else { return nil }
          prefix = ExportLine.prefix(text)
          keys.append(contentsOf: text)
          return keys.count - text.count..<keys.count
        }
        let id = row.withUTF8(0) { text -> Range<Int> in
          keys.append(contentsOf: text ?? UnsafeBufferPointer(start: nil, count: 0))
          return keys.count - (text?.count ?? 0)..<keys.count
        }
        rows.append(ExportLine(line: start..<lines.bytes.count, date: date, prefix: prefix, id: id))
      }
    }
    // Sorted as small keys (the date's first bytes, the row), the whole rows only on a tie.
    var order = rows.indices.map { (rows[$0].prefix.0, rows[$0].prefix.1, $0) }
    keys.withUnsafeBufferPointer { keys in
      order.sort { a, b in
        if (a.0, a.1) != (b.0, b.1) { return (a.0, a.1) > (b.0, b.1) }
        return ExportLine.before(rows[a.2], rows[b.2], keys)
      }
    }
    var csv = CSVWriter(sink: write)
    for name in Self.csvHeader { csv.field(name) }
    try csv.endRecord()
    try lines.bytes.withUnsafeBufferPointer { bytes in
      for (_, _, index) in order { try csv.rawRecord(UnsafeBufferPointer(rebasing: bytes[rows[index].line])) }
    }
    try csv.flush()
    return rows.count
  }

  /// One exported row: where its line is, and its sort key (date, id) in the key bytes.
  private struct ExportLine {
    let line: Range<Int>
    let date: Range<Int>?
    /// The date's first 16 bytes as two numbers that order as the bytes do: most dates differ
    /// in them (to the minute), and two compares of numbers cost less than a `memcmp` call.
    let prefix: (UInt64, UInt64)
    let id: Range<Int>

    static func prefix(_ text: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
      var high: UInt64 = 0
      var low: UInt64 = 0
      for i in 0..<16 {
        let byte = UInt64(i < text.count ? text[i] : 0)
        if i < 8 { high = high << 8 | byte } else { low = low << 8 | byte }
      }
      return (high, low)
    }

    /// Newest first, a missing date last (`ORDER BY date DESC, id` in SQLite), then by id; text
    /// compared byte by byte as SQLite's BINARY collation does.
    static func before(_ a: ExportLine, _ b: ExportLine, _ keys: UnsafeBufferPointer<UInt8>) -> Bool {
      switch (a.date, b.date) {
      case (nil, .some): return false
      case (.some, nil): return true
      case (.some(let x), .some(let y)):
        if a.prefix != b.prefix { return a.prefix > b.prefix }
        let order = compare(x, y, keys)
        if order != 0 { return order > 0 }
      case (nil, nil): break
      }
      return compare(a.id, b.id, keys) < 0
    }

    static func compare(_ x: Range<Int>, _ y: Range<Int>, _ keys: UnsafeBufferPointer<UInt8>) -> Int {
      let shared = min(x.count, y.count)
      if shared > 0 {
        let order = memcmp(keys.baseAddress! + x.lowerBound, keys.baseAddress! + y.lowerBound, shared)
        if order != 0 { return Int(order) }
      }
      return x.count - y.count
    }
  }

  public struct ImportSummary: Equatable, Sendable {
    public var rows = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Rows of donations deleted on this device (or synced as deleted): left deleted, as an
    /// Apple Health sample deleted by hand stays deleted when its export is imported again.
    public var keptDeleted = 0
  }

  public enum ImportError: Error, Equatable, CustomStringConvertible {
    case csv(CSV.ParseError)
    case header(columns: Int)
    case row(line: Int, String)

    public var description: String {
      switch self {
      case .csv(let error): return "\(error); nothing was imported"
      case .header(let columns):
        // The line itself is not echoed: it may be a row of health data.
        return
          "line 1: the header must be \(DonationStore.csvHeader.joined(separator: ",")) or its first 7 columns (found \(columns) columns that differ); nothing was imported"
      case .row(let line, let problem): return "line \(line): \(problem); nothing was imported"
      }
    }
  }
}
