import Replication

extension LabResult {
  /// A result as it is stored, synced and exported (`LabStore.results`, `Dataset.labResult`).
  public static let shape = RecordShape<LabResult>(
    blank: { LabResult(id: "", test: "", value: 0, at: .distantPast) },
    [
      .text("id", \.id), .text("test", \.test, rule: .text(maxBytes: 64)),
      // Any finite number: the catalogue's plausible range is asked of a person typing, not of
      // a result another device kept with --force.
      .real("value", \.value, rule: .number(-1_000_000_000...1_000_000_000)),
      .number("second", \.second, -1_000_000_000...1_000_000_000),
      .number("recorded", \.recorded, -1_000_000_000...1_000_000_000),
      .text("recorded_unit", \.recordedUnit, rule: .text(maxBytes: 40)),
      .instant("at", \.at, years: 1900...2200), .text("lab", \.lab, rule: .text(maxBytes: 200)),
      .number("range_low", \.rangeLow, -1_000_000_000...1_000_000_000),
      .number("range_high", \.rangeHigh, -1_000_000_000...1_000_000_000),
      .text("note", \.note, rule: .text(maxBytes: 2000)), .text("donation_id", \.donationID, rule: .text(maxBytes: 64)),
    ])

  package static let synced = shape.selection(Dataset.labResult.fields)
}
