import Replication
import Storage

extension MedicationStore {
  public static let medications = Table(
    "medication",
    comment: """
      Schedules as `HH:MM,...` and `mon,tue,...`; stock counts down from `stock` by the doses taken
      after `stock_set_at`, so takes on two devices both count.
      """,
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("name", "NOT NULL"), .text("times", "NOT NULL"), .text("days"), .text("dose"), .integer("stock"),
      .text("stock_set_at"), .integer("refill_at"), .text("since", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], indexes: ["medication_account": "account_id, name"])

  public static let doses = Table(
    "dose",
    comment: """
      A dose event's id is its medication and scheduled time, so the same dose recorded on two
      devices is one record.
      """,
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("medication_id", "NOT NULL"), .text("medication", "NOT NULL"), .text("dose"),
      .text("scheduled_at", "NOT NULL"), .text("status", "NOT NULL CHECK (status IN ('taken', 'skipped'))"),
      .text("at", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["dose_account_medication": "account_id, medication_id, scheduled_at"])
}

extension Dataset {
  public static let medication = Dataset(MedicationStore.medications)
  public static let dose = Dataset(MedicationStore.doses)
}
