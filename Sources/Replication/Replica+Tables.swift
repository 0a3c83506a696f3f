import Storage

extension Replica {
  /// This database's own facts: its device id (a replica's node) and the last clock reading.
  public static let meta = Table("meta", [.text("key", "PRIMARY KEY"), .text("value", "NOT NULL")])
  /// What the first migration writes after creating `meta`: the device id, made once.
  public static let makeDeviceID = "INSERT INTO meta (key, value) VALUES ('device_id', lower(hex(randomblob(8))));"

  /// The clock of every synced field, as `field=hlc;...` (or `*=hlc` when all are the same).
  public static let rows = Table(
    "sync_row", comment: "The clock of every synced field (`field=hlc;...`).",
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("dataset", "NOT NULL"),
      .text("row_id", "NOT NULL"), .text("clocks", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, dataset, row_id)"], withoutRowID: true)

  /// Local changes not yet sent; field `*` is a whole record, read when it is sent.
  public static let outbox = Table(
    "sync_outbox", comment: "Local changes not yet sent; field `*` is a whole record, read when it is sent.",
    [
      .integer("seq", "PRIMARY KEY AUTOINCREMENT"),
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("dataset", "NOT NULL"),
      .text("row_id", "NOT NULL"), .text("field", "NOT NULL"), .any("value"), .text("hlc", "NOT NULL"),
    ], indexes: ["sync_outbox_account": "account_id, seq"])
}

extension Replica {
  /// UTC days whose rows changed, for datasets with a span (`Dataset.span`), until the cache
  /// derived from them has caught up and clears them.
  public static let changedDays = Table(
    "replica_changed_day",
    comment: "UTC days whose rows changed (datasets with a span), until a cache derived from them catches up.",
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("dataset", "NOT NULL"),
      .text("day", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, dataset, day)"], withoutRowID: true)
}
