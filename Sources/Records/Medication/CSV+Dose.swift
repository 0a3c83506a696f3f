import Foundation
import Storage

/// Dose history as CSV: `scheduled_at,medication,dose,status,at`, oldest first, date-times in
/// ISO 8601 with the local offset; missed doses included.
extension MedicationStore {
  public static let csvHeader = ["scheduled_at", "medication", "dose", "status", "at"]

  @discardableResult
  public func exportCSV(write: @escaping ([UInt8]) throws -> Void) throws -> Int {
    let zone = calendar.timeZone
    var csv = CSVWriter(sink: write)
    for name in Self.csvHeader { csv.field(name) }
    try csv.endRecord()
    let history = try history()
    for d in history {
      csv.field(ISO8601.string(from: d.scheduledAt, timeZone: zone))
      csv.field(d.medication)
      csv.field(d.dose ?? "")
      csv.field(d.status.rawValue)
      csv.field(d.at.map { ISO8601.string(from: $0, timeZone: zone) } ?? "")
      try csv.endRecord()
    }
    try csv.flush()
    return history.count
  }
}
