import Core
import Foundation
import Records
import Replication
import Storage

extension FHIRReader {
  /// A medication from its statement (the list as a doctor reads it): name, schedule, dose and
  /// since when. Stock, pauses and past plans stay as they are here.
  mutating func medication(_ r: Resource, _ index: Int) throws -> Record? {
    guard let id = Self.vitalID(r, "medication") else { return nil }
    guard let url = (r["medicationReference"] as? Resource)?["reference"] as? String,
      let medication = self.index.medications[url]
    else { throw FHIRImportError.entry(index, "a medication statement whose medication is not in the bundle") }
    let since = try Self.date((r["effectivePeriod"] as? Resource)?["start"], index, "effectivePeriod.start")
    let dosage = (r["dosage"] as? [Resource])?.first ?? [:]
    let repeats = ((dosage["timing"] as? Resource)?["repeat"] as? Resource) ?? [:]
    let times = (repeats["timeOfDay"] as? [String] ?? []).compactMap { TimeOfDay(String($0.prefix(5))) }
    let days = (repeats["dayOfWeek"] as? [String])?.compactMap { Weekday(name: $0) }
    let asNeeded = dosage["asNeededBoolean"] as? Bool ?? false
    guard asNeeded || !times.isEmpty else {
      throw FHIRImportError.entry(index, "a medication with neither times of day nor as needed")
    }
    var m = Medication(
      id: id, name: medication.name, times: times, days: days, dose: Self.dose(dosage), stock: nil,
      stockSetAt: nil, refillAt: nil, since: since)
    m.asNeeded = asNeeded
    let all = MedicationStore.fields(m)
    let columns = Medication.shape.selection(of: [\.name, \.times, \.days, \.dose, \.since, \.asNeeded])
    consumed.formUnion([index, medication.entry])
    return Record(id: id, columns: columns.names, values: Medication.shape.values(m, columns), rest: all)
  }

  /// The dose from `doseAndRate` (a number and a unit), as Vital writes it: `5 mg`.
  static func dose(_ dosage: Resource) -> String? {
    guard let rate = (dosage["doseAndRate"] as? [Resource])?.first,
      let quantity = rate["doseQuantity"] as? Resource, let value = number(quantity),
      let unit = quantity["unit"] as? String
    else { return nil }
    let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    return "\(text) \(unit)"
  }

  /// A dose taken or skipped (missed ones are worked out from the schedule, not stored).
  mutating func dose(_ r: Resource, _ index: Int) throws -> Record? {
    guard let key = Self.vitalID(r, "dose") else { return nil }
    let parts = key.split(separator: "@")
    guard parts.count == 2, let seconds = Int64(parts[1]) else {
      throw FHIRImportError.entry(index, "a dose id that is not MEDICATION@SECONDS")
    }
    let reason = ((r["statusReason"] as? [Resource])?.first?["text"] as? String)
    let status: DoseStatus
    switch (r["status"] as? String, reason) {
    case ("completed", _): status = .taken
    case ("not-done", "skipped"): status = .skipped
    default: return nil
    }
    let named = ((r["medicationReference"] as? Resource)?["reference"] as? String).flatMap { url in
      self.index.stated.contains(url) ? self.index.medications[url]?.name : nil
    }
    let medication = named ?? ((r["medicationCodeableConcept"] as? Resource)?["text"] as? String)
    guard let medication else { throw FHIRImportError.entry(index, "a dose without its medication") }
    let at = try Self.date(r["effectiveDateTime"], index, "effectiveDateTime")
    let dose = Dose(
      medicationID: String(parts[0]), medication: medication,
      dose: (r["dosage"] as? Resource)?["text"] as? String,
      scheduledAt: Date(timeIntervalSince1970: TimeInterval(seconds)), status: status, at: at)
    consumed.insert(index)
    let columns = Dose.shape.selection(of: [\.medicationID, \.medication, \.dose, \.scheduledAt, \.status, \.at])
    return Record(
      id: key, columns: columns.names, values: Dose.shape.values(dose, columns), rest: [Dose.recorded: at.databaseValue]
    )
  }
}
