import Storage

// Frozen: the DDL each migration shipped with, as text (see VitalSchema+0014to0019.swift).
extension VitalSchema.Shipped {
  /// The outbox is read and emptied in `seq` order, its rowid, with the account as a filter: an
  /// index on (account, seq) served no read that the table's own order does not, and every
  /// change written and every change a push acknowledged paid for it (a first push of an import
  /// of 100,000 records: a tenth of the device's time).
  static let outboxByRowID = Migration(
    "0024_outbox_by_rowid",
    sql: """
      DROP INDEX sync_outbox_account;
      """)
}
