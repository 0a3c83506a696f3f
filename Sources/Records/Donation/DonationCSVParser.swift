import Foundation
import Replication
import Storage

/// Reads one row of a donation CSV into a donation, checking every field: pure, so the rows
/// of a large file are read on several threads at once.
struct DonationCSVParser: Sendable {
  private typealias Problem = DonationStore.ImportError
  /// 7 or 12: files written before the measurements existed have no vitals columns.
  let columns: Int
  let now: Date
  let calendar: Calendar

  func donation(_ record: CSV.Record) throws -> Donation {
    let line = record.line
    let f = record.fields
    guard f.count == columns else {
      throw Problem.row(line: line, "expected \(columns) fields, found \(f.count)")
    }
    guard let id = Self.canonicalUUID(f[0]) else { throw Problem.row(line: line, "id must be a UUID") }
    guard let kind = DonationKind(rawValue: f[1]) else {
      throw Problem.row(
        line: line, "unknown kind; use one of \(DonationKind.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    guard let status = DonationStatus(rawValue: f[2]) else {
      throw Problem.row(line: line, "unknown status; use scheduled, completed or cancelled")
    }
    let scheduled = try time(f[3], column: "scheduled_at", line: line)
    let completed = try time(f[4], column: "completed_at", line: line)
    if status == .completed && completed == nil {
      throw Problem.row(line: line, "a completed donation needs completed_at")
    }
    if status == .scheduled && scheduled == nil {
      throw Problem.row(line: line, "a scheduled donation needs scheduled_at")
    }
    if let completed, completed > now { throw Problem.row(line: line, "completed_at is in the future") }
    guard !f[5].allSatisfy(\.isWhitespace) else {
      throw Problem.row(line: line, "place is empty")
    }
    for (column, index) in [("place", 5), ("notes", 6)] where f[index].utf8.count > Replica.maxValueBytes {
      throw Problem.row(
        line: line,
        "\(column) holds \(Replica.describe(bytes: f[index].utf8.count)); a value holds at most \(Replica.describe(bytes: Replica.maxValueBytes))"
      )
    }
    var vitals = DonationVitals()
    if columns > 7 {
      let name = Self.vitalsColumns
      vitals = DonationVitals(
        haemoglobin: try number(f[7], column: name[0], whole: false, line: line),
        ferritin: try number(f[8], column: name[1], whole: false, line: line),
        systolic: try number(f[9], column: name[2], line: line).map(Int.init),
        diastolic: try number(f[10], column: name[3], line: line).map(Int.init),
        pulse: try number(f[11], column: name[4], line: line).map(Int.init))
      do {
        vitals = try vitals.validated()
      } catch let error as VitalsError {
        throw Problem.row(line: line, error.description)
      }
      if !vitals.isEmpty && status != .completed {
        throw Problem.row(line: line, "measurements belong to a completed donation, and this one is \(status)")
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
    // nil: not a UUID; true: one with capitals.
    let upper = text.withUTF8 { bytes -> Bool? in
      guard bytes.count == 36 else { return nil }
      var upper = false
      for (i, byte) in bytes.enumerated() {
        if i == 8 || i == 13 || i == 18 || i == 23 {
          guard byte == UInt8(ascii: "-") else { return nil }
        } else if (65...70).contains(byte) {
          upper = true
        } else {
          guard (48...57).contains(byte) || (97...102).contains(byte) else { return nil }
        }
      }
      return upper
    }
    guard let upper else { return nil }
    return upper ? text.lowercased() : text
  }

  /// The measurements' columns, in the CSV's order.
  static let vitalsColumns = [
    \Donation.vitals.haemoglobin, \.vitals.ferritin, \.vitals.systolic, \.vitals.diastolic, \.vitals.pulse,
  ].map { Donation.shape.name(of: $0) }

  private func number(_ text: String, column: String, whole: Bool = true, line: Int) throws -> Double? {
    if text.isEmpty { return nil }
    guard let value = Double(text), value.isFinite, value.magnitude < 1e6 else {
      throw Problem.row(line: line, "\(column) is not a number")
    }
    if whole && value != value.rounded() {
      throw Problem.row(line: line, "\(column) must be a whole number")
    }
    return value
  }

  private func time(_ text: String, column: String, line: Int) throws -> Date? {
    if text.isEmpty { return nil }
    guard let fields = ISO8601.fields(from: text) else {
      throw Problem.row(line: line, "\(column) is not a date-time like 2026-12-01T09:30:00+01:00")
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
      throw Problem.row(
        line: line,
        "\(column) \(text.prefix(19)) does not exist in \(calendar.timeZone.identifier) (the clocks skip it); give its UTC offset or another time"
      )
    }
    return date
  }
}
