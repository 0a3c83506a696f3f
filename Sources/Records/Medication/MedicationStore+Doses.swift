import Core
import Foundation
import Replication
import Storage

/// Correcting a recorded dose, and taking the last one back.
extension MedicationStore {
  /// A recorded dose by `NAME@YYYY-MM-DDTHH:MM` (its medication and scheduled local time), or
  /// by its id.
  public func findDose(_ key: String) throws -> Dose {
    var id = key
    if let at = key.lastIndex(of: "@"), let medication = try? find(String(key[..<at])) {
      let time = String(key[key.index(after: at)...]).replacingOccurrences(of: " ", with: "T")
      let f = ISO8601.fields(from: time)
      guard let f, f.offset == nil,
        let scheduled = calendar.date(
          from: DateComponents(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute))
      else { throw MedicationError.badDoseKey(key) }
      id = Dose.id(medication: medication.id, scheduledAt: scheduled)
    }
    guard
      let dose = try db.queryFirst(
        "SELECT \(Self.doseColumns) FROM dose WHERE account_id = ? AND id = ?", account.id, id, row: Self.dose)
    else { throw MedicationError.noDose(key) }
    return dose
  }

  /// Changes when a recorded dose was taken or skipped, or which of the two it was. The time
  /// stays within 12 hours of the dose's scheduled time (else it is another dose), and never
  /// in the future.
  public func editDose(_ key: String, at: Date?, status: DoseStatus?) throws -> Dose {
    let old = try findDose(key)
    if let status, status != .taken && status != .skipped { throw MedicationError.badDoseStatus }
    var fields: [String: DatabaseValue] = [:]
    if let at, at != old.at {
      guard at <= now else { throw MedicationError.inTheFuture }
      guard abs(at.timeIntervalSince(old.scheduledAt)) <= Self.window else {
        throw MedicationError.tooFarFromDose(HumanText(now: now, calendar: calendar).time(old.scheduledAt))
      }
      fields["at"] = at.databaseValue
    }
    if let status, status != old.status { fields["status"] = .text(status.rawValue) }
    let id = Dose.id(medication: old.medicationID, scheduledAt: old.scheduledAt)
    if !fields.isEmpty { try replica.write(.dose, id: id, fields) }
    return Dose(
      medicationID: old.medicationID, medication: old.medication, dose: old.dose, scheduledAt: old.scheduledAt,
      status: status ?? old.status, at: at ?? old.at)
  }

  /// Forgets a recorded take or skip: the dose is open again (and missed once its time is past).
  @discardableResult
  public func deleteDose(_ key: String) throws -> Dose {
    let dose = try findDose(key)
    try replica.delete(.dose, id: Dose.id(medication: dose.medicationID, scheduledAt: dose.scheduledAt))
    return dose
  }
}

extension MedicationStore {
  /// Takes back the take or skip of `medication` recorded last (a take's stock comes back with it).
  @discardableResult
  public func undoLast(_ key: String) throws -> Dose {
    let m = try find(key)
    guard
      let last = try db.queryFirst(
        """
        SELECT \(Self.doseColumns) FROM dose WHERE account_id = ? AND medication_id = ?
        ORDER BY coalesce(recorded, at) DESC, at DESC LIMIT 1
        """, account.id, m.id, row: Self.dose)
    else { throw MedicationError.nothingToUndo(m.name) }
    try replica.delete(.dose, id: Dose.id(medication: last.medicationID, scheduledAt: last.scheduledAt))
    return last
  }
}
