import Storage

// Frozen: the DDL each migration shipped with, as text (see VitalSchema+0014to0019.swift).
extension VitalSchema.Shipped {
  /// Lab results and measurements by hand (docs/labs.md).
  static let labResults = Migration(
    "0022_lab_results",
    sql: """
      CREATE TABLE lab_result (
        -- Lab results and measurements by hand: value in the test's canonical unit (lab-tests.json),
        -- recorded/recorded_unit as written when another unit, the laboratory's own range if given.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        test TEXT NOT NULL,
        value REAL NOT NULL,
        second REAL,
        recorded REAL,
        recorded_unit TEXT,
        at TEXT NOT NULL,
        lab TEXT,
        range_low REAL,
        range_high REAL,
        note TEXT,
        donation_id TEXT,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX lab_result_test_at ON lab_result(account_id, test, at);
      """)
}
