import Core
import Foundation
import Storage

/// Recorded doses, and the history of every dose.
extension MedicationStore {
  /// Takes and skips of one medication recorded for `[from, to)`, by scheduled time.
  func recordedDoses(_ medicationID: String, from: Date, to: Date) throws -> [Dose] {
    try db.query(
      """
      SELECT \(Self.doseColumns) FROM dose
      WHERE account_id = ? AND medication_id = ? AND scheduled_at >= ? AND scheduled_at < ?
      ORDER BY scheduled_at
      """, account.id, medicationID, from, to, row: Self.dose)
  }

  /// Every dose event: recorded takes and skips (also of removed medications) and the doses
  /// missed so far, by scheduled time; each with the dose in force that day.
  public func history() throws -> [Dose] {
    var all = try db.query(
      "SELECT \(Self.doseColumns) FROM dose WHERE account_id = ?", account.id,
      row: Self.dose)
    for m in try list() {
      guard let first = m.plans.first?.since else { continue }
      all += try doses(m, from: first, to: now).filter { $0.status == .missed }
    }
    return all.sorted { ($0.scheduledAt, $0.medication) < ($1.scheduledAt, $1.medication) }
  }
}
