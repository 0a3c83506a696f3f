import Records
import Storage

extension ReminderSettings {
  /// Which sources are on, per device: a notification shows on this screen.
  public static let sources = Table(
    "reminder_source",
    comment: "Which sources are on, and whether notifications are discreet (per device: they show on this screen).",
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("source", "NOT NULL"),
      .integer("enabled", "NOT NULL CHECK (enabled IN (0, 1))"),
      // HH:MM for a source that reminds daily at a chosen time (the morning temperature).
      .text("at"),
    ], constraints: ["PRIMARY KEY (account_id, source)"], withoutRowID: true)
}

extension ReminderDelivery {
  public static let deliveries = Table(
    "reminder_delivery", comment: "What `vital reminders notify` has delivered or reported missed.",
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("reminder", "NOT NULL"),
      .text("due_at", "NOT NULL"), .text("delivered_at", "NOT NULL"),
      .text("outcome", "NOT NULL CHECK (outcome IN ('delivered', 'missed'))"),
    ], constraints: ["PRIMARY KEY (account_id, reminder)"], withoutRowID: true)

  public static let runs = Table(
    "reminder_run", comment: "When `vital reminders notify` last ran.",
    [.text("account_id", "PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE"), .text("last_run", "NOT NULL")])
}
