import Storage

extension ChangeJournal {
  /// One command's changes on this device, newest last. Local: an undo reverts this device's own
  /// changes, never another's.
  public static let changes = Table(
    "change_log", comment: "The changes commands made on this device, for 'vital undo' (never synced).",
    [
      .integer("seq", "PRIMARY KEY AUTOINCREMENT"), .text("id", "NOT NULL UNIQUE"),
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("at", "NOT NULL"),
      .text("command", "NOT NULL"), .text("undoes"), .text("undone_by"),
    ], indexes: ["change_log_account": "account_id, seq"])

  /// What a change did to one record: created, edited, deleted or restored it, or imported a
  /// batch (`row_id` empty, the batch's clock in `hlc`). `fields` names what it wrote.
  public static let steps = Table(
    "change_step", comment: "What one change did to one record, with the clock it wrote.",
    [
      .text("change_id", "NOT NULL REFERENCES change_log(id) ON DELETE CASCADE"), .integer("n", "NOT NULL"),
      .text("action", "NOT NULL"), .text("dataset", "NOT NULL"), .text("row_id", "NOT NULL"),
      .text("hlc", "NOT NULL"), .text("fields", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (change_id, n)"], withoutRowID: true)

  /// The values a step replaced: the edited fields before the edit, or a deleted record whole.
  public static let before = Table(
    "change_before", comment: "The values a change replaced, so an undo can put them back.",
    [
      .text("change_id", "NOT NULL"), .integer("n", "NOT NULL"), .text("field", "NOT NULL"), .any("value"),
    ],
    constraints: [
      "PRIMARY KEY (change_id, n, field)",
      "FOREIGN KEY (change_id, n) REFERENCES change_step(change_id, n) ON DELETE CASCADE",
    ], withoutRowID: true)
}
