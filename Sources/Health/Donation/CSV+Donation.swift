import Foundation
import Replication
import Storage

/// Donation history as CSV: `id,kind,status,scheduled_at,completed_at,place,notes` and the
/// measurements `hb_g_dl,ferritin_ng_ml,bp_systolic,bp_diastolic,pulse_bpm`, date-times in ISO
/// 8601 with the local offset. Import is all or nothing and idempotent by id; files written
/// before the measurements existed (seven columns) still import and leave stored ones alone.
extension DonationStore {
  public static let csvHeader =
    csvHeaderBeforeVitals + [
      "hb_g_dl", "ferritin_ng_ml", "bp_systolic", "bp_diastolic", "pulse_bpm",
    ]
  static let csvHeaderBeforeVitals = ["id", "kind", "status", "scheduled_at", "completed_at", "place", "notes"]

  /// Streams every donation, newest first, to `write` in chunks of about a megabyte. Rows go
  /// from SQLite's buffers to the output without becoming Swift strings. Returns how many.
  @discardableResult
  public func exportCSV(write: @escaping ([UInt8]) throws -> Void) throws -> Int {
    var rows = 0
    let times = LocalTimeFormatter(timeZone: calendar.timeZone)
    var csv = CSVWriter(sink: write)
    for name in Self.csvHeader { csv.field(name) }
    try csv.endRecord()
    try db.forEachRow(
      "SELECT \(Self.columns) FROM donation WHERE account_id = ? ORDER BY coalesce(completed_at, scheduled_at) DESC, id",
      account.id
    ) { row in
      for column in 0..<Self.csvHeader.count {
        row.withUTF8(column) { text in
          guard column == 3 || column == 4, let text, !text.isEmpty else { return csv.field(text) }
          csv.rawField { out in
            // Text not in the stored form is written as it is rather than lost.
            if !times.appendLocal(stored: text, to: &out) { out.append(contentsOf: text) }
          }
        }
      }
      try csv.endRecord()
      rows += 1
    }
    try csv.flush()
    return rows
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

  /// Reads the whole file, checks every row, then writes all of it in one transaction: new
  /// donations in bulk through the synced write path, changed ones field by field.
  public func importCSV(_ data: Data) throws -> ImportSummary {
    let records: [CSV.Record]
    do { records = try CSV.parse(data) } catch let error as CSV.ParseError { throw ImportError.csv(error) }
    guard let header = records.first, header.fields == Self.csvHeader || header.fields == Self.csvHeaderBeforeVitals
    else {
      throw ImportError.header(columns: records.first?.fields.count ?? 0)
    }
    let withVitals = header.fields.count == Self.csvHeader.count
    var donations: [(line: Int, donation: Donation)] = []
    donations.reserveCapacity(records.count)
    var seen: [String: Int] = [:]
    for record in records.dropFirst() {
      let donation = try parse(record, columns: header.fields.count)
      if let first = seen.updateValue(record.line, forKey: donation.id) {
        throw ImportError.row(line: record.line, "id \(donation.id) appears again (first on line \(first))")
      }
      donations.append((record.line, donation))
    }
    let scheduledRows = donations.filter { $0.donation.status == .scheduled }
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
      for (_, var donation) in donations {
        summary.rows += 1
        guard let old = stored[donation.id] else {
          new.append((donation.id, Self.values(donation)))
          continue
        }
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
      summary.inserted = try replica.insertNew(.donation, new)
      summary.keptDeleted = new.count - summary.inserted
    }
    return summary
  }

  private func parse(_ record: CSV.Record, columns: Int) throws -> Donation {
    let line = record.line
    let f = record.fields
    guard f.count == columns else {
      throw ImportError.row(line: line, "expected \(columns) fields, found \(f.count)")
    }
    guard let id = Self.canonicalUUID(f[0]) else { throw ImportError.row(line: line, "id must be a UUID") }
    guard let kind = DonationKind(rawValue: f[1]) else {
      throw ImportError.row(
        line: line, "unknown kind; use one of \(DonationKind.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    guard let status = DonationStatus(rawValue: f[2]) else {
      throw ImportError.row(line: line, "unknown status; use scheduled, completed or cancelled")
    }
    let scheduled = try time(f[3], column: "scheduled_at", line: line)
    let completed = try time(f[4], column: "completed_at", line: line)
    if status == .completed && completed == nil {
      throw ImportError.row(line: line, "a completed donation needs completed_at")
    }
    if status == .scheduled && scheduled == nil {
      throw ImportError.row(line: line, "a scheduled donation needs scheduled_at")
    }
    if let completed, completed > now { throw ImportError.row(line: line, "completed_at is in the future") }
    guard !f[5].allSatisfy(\.isWhitespace) else {
      throw ImportError.row(line: line, "place is empty")
    }
    for (column, text) in [("place", f[5]), ("notes", f[6])] where text.utf8.count > Replica.maxValueBytes {
      throw ImportError.row(
        line: line,
        "\(column) holds \(Replica.describe(bytes: text.utf8.count)); a value holds at most \(Replica.describe(bytes: Replica.maxValueBytes))"
      )
    }
    var vitals = DonationVitals()
    if columns > 7 {
      vitals = DonationVitals(
        haemoglobin: try number(f[7], column: "hb_g_dl", line: line),
        ferritin: try number(f[8], column: "ferritin_ng_ml", line: line),
        systolic: try number(f[9], column: "bp_systolic", line: line).map(Int.init),
        diastolic: try number(f[10], column: "bp_diastolic", line: line).map(Int.init),
        pulse: try number(f[11], column: "pulse_bpm", line: line).map(Int.init))
      do {
        vitals = try vitals.validated()
      } catch let error as VitalsError {
        throw ImportError.row(line: line, error.description)
      }
      if !vitals.isEmpty && status != .completed {
        throw ImportError.row(line: line, "measurements belong to a completed donation, and this one is \(status)")
      }
    }
    return Donation(
      id: id, kind: kind, status: status, scheduledAt: scheduled, completedAt: completed,
      place: f[5], notes: f[6].isEmpty ? nil : f[6], vitals: vitals)
  }

  /// `text` as a lowercase UUID (8-4-4-4-12 hex digits), or nil: what `UUID(uuidString:)`
  /// accepts, without making a UUID and a string back for each of many rows.
  static func canonicalUUID(_ text: String) -> String? {
    var text = text
    let valid = text.withUTF8 { bytes -> Bool in
      guard bytes.count == 36 else { return false }
      for (i, byte) in bytes.enumerated() {
        if i == 8 || i == 13 || i == 18 || i == 23 {
          guard byte == UInt8(ascii: "-") else { return false }
        } else {
          guard (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) else { return false }
        }
      }
      return true
    }
    guard valid else { return nil }
    return text.utf8.contains(where: { (65...70).contains($0) }) ? text.lowercased() : text
  }

  private func number(_ text: String, column: String, line: Int) throws -> Double? {
    if text.isEmpty { return nil }
    guard let value = Double(text), value.isFinite, value.magnitude < 1e6 else {
      throw ImportError.row(line: line, "\(column) is not a number")
    }
    if column != "hb_g_dl" && column != "ferritin_ng_ml" && value != value.rounded() {
      throw ImportError.row(line: line, "\(column) must be a whole number")
    }
    return value
  }

  private func time(_ text: String, column: String, line: Int) throws -> Date? {
    if text.isEmpty { return nil }
    guard let fields = ISO8601.fields(from: text) else {
      throw ImportError.row(line: line, "\(column) is not a date-time like 2026-12-01T09:30:00+01:00")
    }
    if let offset = fields.offset { return ISO8601.date(from: fields, offset: offset) }
    let components = DateComponents(
      year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
      second: fields.second)
    // A time the clocks skip (02:30 on the spring-forward night) comes back moved by an hour:
    // refused, as `donor record` refuses it.
    guard let date = calendar.date(from: components),
      calendar.dateComponents([.hour, .minute], from: date)
        == DateComponents(hour: fields.hour, minute: fields.minute)
    else {
      throw ImportError.row(
        line: line,
        "\(column) \(text.prefix(19)) does not exist in \(calendar.timeZone.identifier) (the clocks skip it); give its UTC offset or another time"
      )
    }
    return date
  }
}
