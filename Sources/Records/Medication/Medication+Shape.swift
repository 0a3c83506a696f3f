import Core
import Foundation
import Replication
import Storage

extension Medication {
  /// A medication as it is stored, synced and exported (`MedicationStore.medications`). The
  /// schedule, taper, past plans, pauses and snooze are text the store codes
  /// (`MedicationStore+Rows`); what another device wrote and this one cannot read is missing.
  public static let shape = RecordShape<Medication>(
    blank: {
      Medication(
        id: "", name: "", times: [], days: nil, dose: nil, stock: nil, stockSetAt: nil, refillAt: nil,
        since: Date(timeIntervalSince1970: 0))
    },
    [
      .text("id", \.id), .text("name", \.name, rule: .text(maxBytes: 500)),
      .coded(
        "times", \.times, "NOT NULL", rule: .timesOfDay, encode: { MedicationStore.text($0) },
        decode: { $0.map(MedicationStore.times) }),
      .coded(
        "days", \.days, rule: .weekdays, encode: { $0.map(MedicationStore.text) },
        decode: { .some($0.map(MedicationStore.days)) }),
      .text("dose", \.dose, rule: .text(maxBytes: 500)), .integer("stock", \.stock, 0...100_000),
      .instant("stock_set_at", exact: \.stockSetAt, years: 1900...2200),
      .integer("refill_at", \.refillAt, 0...100_000), .instant("since", \.since, years: 1900...2200),
      .coded(
        "steps", \.steps, rule: .text(maxBytes: 10_000), encode: { $0.map(TaperStep.text) },
        decode: { .some($0.flatMap { try? TaperStep.parse($0) }) }),
      .day("steps_start", \.stepsStart, years: 1900...2200), .flag("then_keep", \.thenKeep, nullWhenNo: true),
      .text("zone", \.zone, rule: .text(maxBytes: 64)),
      .coded(
        "past", \.past, rule: .json, encode: { $0.isEmpty ? nil : MedicationStore.encode($0) },
        decode: { $0.map(MedicationStore.decodePlans) ?? [] }),
      .flag("as_needed", \.asNeeded, nullWhenNo: true), .seconds("min_interval", \.minInterval, 0...604_800),
      .integer("max_per_day", \.maxPerDay, 1...100), .seconds("min_gap", \.minGap, 0...86_400),
      .day("expires", \.expires, years: 1900...2300),
      .coded(
        "pauses", \.pauses, rule: nil, encode: { $0.isEmpty ? nil : MedicationStore.text($0) },
        decode: { $0.map(MedicationStore.decodePauses) ?? [] }),
      .coded(
        "snooze", \.snooze, rule: nil, encode: { $0.map(MedicationStore.text) },
        decode: { .some($0.flatMap(MedicationStore.snooze)) }),
    ])

  package static let synced = shape.selection(Dataset.medication.fields)
}

extension Dose {
  /// A dose as it is stored, synced and exported (`MedicationStore.doses`); the table adds when
  /// it was written (`recorded`, for `meds undo`).
  public static let shape = RecordShape<Dose>(
    blank: {
      Dose(
        medicationID: "", medication: "", dose: nil, scheduledAt: Date(timeIntervalSince1970: 0), status: .taken,
        at: nil)
    },
    [
      .derived("id", \.id), .text("medication_id", \.medicationID, rule: .text(maxBytes: 200)),
      .text("medication", \.medication, rule: .text(maxBytes: 500)), .text("dose", \.dose, rule: .text(maxBytes: 500)),
      .instant("scheduled_at", \.scheduledAt, years: 1900...2200),
      // Only what became of a dose is stored; missed and pending are worked out.
      .choice("status", \.status, among: [.taken, .skipped], onFault: .missing),
      .init(
        "at", "TEXT NOT NULL", rule: .instant(years: 1900...2200), \.at, write: { $0.databaseValue },
        read: { Date?.fromDatabaseValue($0) }),
      .seconds("shift", \.shift, -86_400...86_400), .flag("over_limit", \.overLimit, nullWhenNo: true),
    ])

  package static let synced = shape.selection(Dataset.dose.fields.filter { $0 != recorded })
  /// When the dose was written: synced, not a property of the dose.
  package static let recorded = "recorded"
}
