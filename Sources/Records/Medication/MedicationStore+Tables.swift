import Replication
import Storage

extension MedicationStore {
  public static let medications = Table(
    "medication",
    comment: """
      Schedules as `HH:MM,...` and `mon,tue,...`; stock counts down from `stock` by the doses taken
      after `stock_set_at`, so takes on two devices both count. `steps` is a taper (`20 mg:7d,...`
      from `steps_start`), `zone` an IANA zone the times are pinned to (NULL: local), `past` the
      plans that edits ended (JSON), `pauses` `from/until;...` and `snooze` `scheduled/until` as
      ISO instants; `as_needed` medications have no times and limits in seconds and doses instead.
      """,
    Medication.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["medication_account": "account_id, name"])

  public static let doses = Table(
    "dose",
    comment: """
      A dose event's id is its medication and scheduled time, so the same dose recorded on two
      devices is one record (an as-needed dose's scheduled time is when it was taken). `shift`:
      seconds this late dose moved the rest of its day; `over_limit`: an as-needed dose taken
      past its limits; `recorded`: when it was written, for `meds undo`.
      """,
    Dose.shape.accountTableColumns(adding: [(after: "over_limit", Table.Column.text(Dose.recorded))]),
    constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["dose_account_medication": "account_id, medication_id, scheduled_at"])
}

extension Dataset {
  public static let medication = Dataset(MedicationStore.medications, rules: Medication.shape.rules)
  public static let dose = Dataset(
    MedicationStore.doses as Table,
    rules: Dose.shape.rules.merging([Dose.recorded: FieldRule.instant(years: 1900...2200)]) { a, _ in a })
}
