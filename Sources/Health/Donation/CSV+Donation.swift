import Foundation
import Replication
import Storage

/// Donation history as CSV: `id,kind,status,scheduled_at,completed_at,place,notes`, date-times
/// in ISO 8601 with the local offset. Import is all or nothing and idempotent by id.
extension DonationStore {
  public static let csvHeader = ["id", "kind", "status", "scheduled_at", "completed_at", "place", "notes"]

  /// Streams every donation, newest first, to `write` in chunks of about a megabyte. Rows go
  /// from SQLite's buffers to the output without becoming Swift strings.
  public func exportCSV(write: @escaping ([UInt8]) throws -> Void) throws {
    let times = LocalTimeFormatter(timeZone: calendar.timeZone)
    var csv = CSVWriter(sink: write)
    for name in Self.csvHeader { csv.field(name) }
    try csv.endRecord()
    try db.forEachRow(
      "SELECT \(Self.columns) FROM donation WHERE account_id = ? ORDER BY coalesce(completed_at, scheduled_at) DESC, id",
      account.id
    ) { row in
      for column in 0..<7 {
        row.withUTF8(column) { text in
          guard column == 3 || column == 4, let text, !text.isEmpty else { return csv.field(text) }
          csv.rawField { out in
            // Text not in the stored form is written as it is rather than lost.
            if !times.appendLocal(stored: text, to: &out) { out.append(contentsOf: text) }
          }
        }
      }
      try csv.endRecord()
    }
    try csv.flush()
  }

  public struct ImportSummary: Equatable, Sendable {
    public var rows = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
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
          "line 1: the header must be \(DonationStore.csvHeader.joined(separator: ",")) (found \(columns) columns that differ); nothing was imported"
      case .row(let line, let problem): return "line \(line): \(problem); nothing was imported"
      }
    }
  }

  /// Reads the whole file, checks every row, then writes all of it in one transaction.
  public func importCSV(_ data: Data) throws -> ImportSummary {
    let records: [CSV.Record]
    do { records = try CSV.parse(data) } catch let error as CSV.ParseError { throw ImportError.csv(error) }
    guard let header = records.first, header.fields == Self.csvHeader else {
      throw ImportError.header(columns: records.first?.fields.count ?? 0)
    }
    var donations: [(line: Int, donation: Donation)] = []
    var seen: [String: Int] = [:]
    for record in records.dropFirst() {
      let donation = try parse(record)
      if let first = seen[donation.id] {
        throw ImportError.row(line: record.line, "id \(donation.id) appears again (first on line \(first))")
      }
      seen[donation.id] = record.line
      donations.append((record.line, donation))
    }
    let scheduledRows = donations.filter { $0.donation.status == .scheduled }
    if scheduledRows.count > 1 {
      throw ImportError.row(line: scheduledRows[1].line, "only one appointment can be scheduled at a time")
    }

    var summary = ImportSummary()
    try db.transaction { db in
      if let row = scheduledRows.first, let current = try scheduled(), current.id != row.donation.id {
        throw ImportError.row(
          line: row.line, "you already have a scheduled appointment (\(current.id.prefix(8))); cancel it first")
      }
      for (line, donation) in donations {
        summary.rows += 1
        let owner = try db.scalar(String.self, "SELECT account_id FROM donation WHERE id = ?", donation.id)
        switch owner {
        case nil:
          try insert(donation)
          summary.inserted += 1
        case account.id:
          let stored = try find(donation.id)
          if stored == donation {
            summary.unchanged += 1
          } else {
            try update(donation, from: stored)
            summary.updated += 1
          }
        default:
          throw ImportError.row(line: line, "id \(donation.id) belongs to another account in this data folder")
        }
      }
    }
    return summary
  }

  private func parse(_ record: CSV.Record) throws -> Donation {
    let line = record.line
    let f = record.fields
    guard f.count == Self.csvHeader.count else {
      throw ImportError.row(line: line, "expected \(Self.csvHeader.count) fields, found \(f.count)")
    }
    guard let uuid = UUID(uuidString: f[0]) else { throw ImportError.row(line: line, "id must be a UUID") }
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
    guard !f[5].trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ImportError.row(line: line, "place is empty")
    }
    for (column, text) in [("place", f[5]), ("notes", f[6])] where text.utf8.count > Replica.maxValueBytes {
      throw ImportError.row(
        line: line,
        "\(column) holds \(Replica.describe(bytes: text.utf8.count)); a value holds at most \(Replica.describe(bytes: Replica.maxValueBytes))"
      )
    }
    return Donation(
      id: uuid.uuidString.lowercased(), kind: kind, status: status, scheduledAt: scheduled, completedAt: completed,
      place: f[5], notes: f[6].isEmpty ? nil : f[6])
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
