import Foundation
import Storage

extension DonationStore {
  /// Writes every donation, newest first (ties by id), to `write` in chunks of about a megabyte.
  /// Rows go from SQLite's buffers to the output without becoming Swift strings. Returns how many.
  ///
  /// The table is read in the order it is stored and the lines sorted here: read in date order
  /// through the index, each row was a seek to a random page when the rows came in another order
  /// than their dates (an import of another program's file), and that took most of the export.
  /// The rows are read on this thread and made into lines on another, a batch at a time: the two
  /// halves cost about the same.
  @discardableResult
  public func exportCSV(write: @escaping ([UInt8]) throws -> Void) throws -> Int {
    let expected = try db.scalar(Int.self, "SELECT count(*) FROM donation WHERE account_id = ?", account.id) ?? 0
    let lines = OnQueue(ExportLines(expected: expected, times: LocalTimeFormatter(timeZone: calendar.timeZone)))
    let queue = DispatchQueue(label: "vital.donor-export")
    let width = Self.csvHeader.count
    var batch = RawRows(columns: width)
    // Each page of the table is read once: 2 MiB of cache, reused, rather than 32 MiB of fresh
    // pages the process faults in one by one (some 6,000 of them for 100,000 rows).
    try db.withPageCache(kibibytes: 2048) {
      try db.forEachRow(
        "SELECT \(Self.columns) FROM donation NOT INDEXED WHERE account_id = ?",
        account.id
      ) { row in
        for column in 0..<width { row.withUTF8(column) { batch.append($0) } }
        if batch.rows == RawRows.rowsPerBatch {
          let full = batch
          queue.async { lines.value.add(full) }
          batch = RawRows(columns: width)
        }
      }
    }
    let last = batch
    queue.sync { lines.value.add(last) }
    return try lines.value.write(header: Self.csvHeader, to: write)
  }

  /// Rows as SQLite gave them, one batch: each column's bytes one after another.
  private struct RawRows: Sendable {
    static let rowsPerBatch = 2048
    let columns: Int
    var bytes: [UInt8] = []
    /// Per row, per column: where its bytes are, nil for NULL.
    var cells: [Range<Int>?] = []

    init(columns: Int) {
      self.columns = columns
      bytes.reserveCapacity(Self.rowsPerBatch * 160)
      cells.reserveCapacity(Self.rowsPerBatch * columns)
    }

    var rows: Int { cells.count / columns }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>?) {
      guard let text else { return cells.append(nil) }
      bytes.append(contentsOf: text)
      cells.append(bytes.count - text.count..<bytes.count)
    }
  }

  /// A value that only the export's queue touches until the caller's last `queue.sync`: the
  /// queue runs its blocks in order, so that the caller reads it only after every batch is in.
  private final class OnQueue<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
  }

  /// The export's lines, made from batches of rows in the order they come, then sorted and
  /// written. A struct changed in place: as properties of a class, each appended byte asked
  /// whether the buffer was shared and whether another access was under way.
  private struct ExportLines {
    let expected: Int
    let times: LocalTimeFormatter
    // Buffers sized once: grown by doubling, the rows' text was copied again at each step, and
    // each larger buffer came from fresh pages (a 100,000-row export faulted in some 90 MB).
    var lines = CSVWriter(collecting: 1 << 16)
    var keys: [UInt8] = []
    var rows: [ExportLine] = []

    init(expected: Int, times: LocalTimeFormatter) {
      self.expected = expected
      self.times = times
      keys.reserveCapacityInHugePages(expected * 64)
      rows.reserveCapacityInHugePages(expected)
    }

    mutating func add(_ batch: RawRows) {
      let fields = batch.columns
      batch.bytes.withUnsafeBufferPointer { bytes in
        func cell(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8>? {
          batch.cells[row * batch.columns + column].map { UnsafeBufferPointer(rebasing: bytes[$0]) }
        }
        for row in 0..<batch.rows {
          if rows.count == 256, expected > 256 {
            // The first rows' mean length, with room to spare, for all of them; at most 256 MiB
            // ahead, so that first rows with long notes cannot ask for more than the export needs.
            lines.reserve(min(lines.bytes.count / 256 * expected * 5 / 4, 1 << 28))
          }
          let start = lines.bytes.count
          for column in 0..<fields {
            let text = cell(row, column)
            guard column == 3 || column == 4, let text, !text.isEmpty else {
              lines.field(text)
              continue
            }
            lines.rawField { out in
              // Text not in the stored form is written as it is rather than lost.
              if !times.appendLocal(stored: text, to: &out) { out.append(contentsOf: text) }
            }
          }
          // A collecting writer never flushes, so never fails.
          try! lines.endRecord()
          var prefix = (UInt64(0), UInt64(0))
          var date: Range<Int>?
          // The key is `coalesce(completed_at, scheduled_at)`, as the table's date index has it.
          if let text = cell(row, 4) ?? cell(row, 3) {
            prefix = ExportLine.prefix(text)
            keys.append(contentsOf: text)
            date = keys.count - text.count..<keys.count
          }
          let id = cell(row, 0) ?? UnsafeBufferPointer(start: nil, count: 0)
          keys.append(contentsOf: id)
          rows.append(
            ExportLine(
              line: start..<lines.bytes.count, date: date, prefix: prefix, id: keys.count - id.count..<keys.count))
        }
      }
    }

    /// Sorts the lines and writes them after `header`; returns how many.
    func write(header: [String], to write: @escaping ([UInt8]) throws -> Void) throws -> Int {
      // Sorted as small keys (the date's first bytes, the row), the whole rows only on a tie.
      var order = rows.indices.map { (rows[$0].prefix.0, rows[$0].prefix.1, $0) }
      keys.withUnsafeBufferPointer { keys in
        order.sort { a, b in
          if (a.0, a.1) != (b.0, b.1) { return (a.0, a.1) > (b.0, b.1) }
          return ExportLine.before(rows[a.2], rows[b.2], keys)
        }
      }
      var csv = CSVWriter(sink: write)
      for name in header { csv.field(name) }
      try csv.endRecord()
      try lines.bytes.withUnsafeBufferPointer { bytes in
        for (_, _, index) in order { try csv.rawRecord(UnsafeBufferPointer(rebasing: bytes[rows[index].line])) }
      }
      try csv.flush()
      return rows.count
    }
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
}
