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
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("name", "NOT NULL"), .text("times", "NOT NULL"), .text("days"), .text("dose"), .integer("stock"),
      .text("stock_set_at"), .integer("refill_at"), .text("since", "NOT NULL"),
      .text("steps"), .text("steps_start"), .integer("then_keep"), .text("zone"), .text("past"),
      .integer("as_needed"), .integer("min_interval"), .integer("max_per_day"), .integer("min_gap"),
      .text("expires"), .text("pauses"), .text("snooze"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], indexes: ["medication_account": "account_id, name"])

  public static let doses = Table(
    "dose",
    comment: """
      A dose event's id is its medication and scheduled time, so the same dose recorded on two
      devices is one record (an as-needed dose's scheduled time is when it was taken). `shift`:
      seconds this late dose moved the rest of its day; `over_limit`: an as-needed dose taken
      past its limits; `recorded`: when it was written, for `meds undo`.
      """,
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("medication_id", "NOT NULL"), .text("medication", "NOT NULL"), .text("dose"),
      .text("scheduled_at", "NOT NULL"), .text("status", "NOT NULL CHECK (status IN ('taken', 'skipped'))"),
      .text("at", "NOT NULL"), .integer("shift"), .integer("over_limit"), .text("recorded"),
    ], constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["dose_account_medication": "account_id, medication_id, scheduled_at"])
}

extension Dataset {
  public static let medication = Dataset(
    MedicationStore.medications,
    rules: [
      "name": .text(maxBytes: 500), "times": .timesOfDay, "days": .weekdays, "dose": .text(maxBytes: 500),
      "stock": .integer(0...100_000), "stock_set_at": .instant(years: 1900...2200), "refill_at": .integer(0...100_000),
      "since": .instant(years: 1900...2200), "steps": .text(maxBytes: 10_000), "steps_start": .day(years: 1900...2200),
      "then_keep": .flag, "zone": .text(maxBytes: 64), "past": .json, "as_needed": .flag,
      "min_interval": .integer(0...604_800), "max_per_day": .integer(1...100), "min_gap": .integer(0...86_400),
      "expires": .day(years: 1900...2300),
    ])
  public static let dose = Dataset(
    MedicationStore.doses,
    rules: [
      "medication_id": .text(maxBytes: 200), "medication": .text(maxBytes: 500), "dose": .text(maxBytes: 500),
      "scheduled_at": .instant(years: 1900...2200), "status": .oneOf(["taken", "skipped"]),
      "at": .instant(years: 1900...2200), "shift": .integer(-86_400...86_400), "over_limit": .flag,
      "recorded": .instant(years: 1900...2200),
    ])
}
