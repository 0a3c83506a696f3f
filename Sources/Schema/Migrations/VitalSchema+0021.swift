import Storage

// Frozen: the DDL each migration shipped with, as text (see VitalSchema+0014to0019.swift).
extension VitalSchema.Shipped {
  /// Each local day's vital readings added up, so a trend over years reads days, not readings.
  /// Empty at first: the days are counted as commands ask for them. And sleep samples indexed
  /// with every column sleep reads.
  static let vitalDays = Migration(
    "0021_vital_days",
    sql: """
      CREATE TABLE health_vital_day (
        -- Derived from health_sample, never synced: each local day's readings of a vital kind added
        -- up (the second number of blood pressure in d_*), the days without readings too (count 0),
        -- in the zone health_vital_state names; sources joined by U+001F.
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        day TEXT NOT NULL,
        count INTEGER NOT NULL,
        minimum REAL,
        maximum REAL,
        sum REAL,
        d_count INTEGER NOT NULL,
        d_minimum REAL,
        d_maximum REAL,
        d_sum REAL,
        sources TEXT NOT NULL,
        PRIMARY KEY (account_id, type, day)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX health_sample_sleep ON health_sample(account_id, type, start, "end", value, source) WHERE type = 'HKCategoryTypeIdentifierSleepAnalysis';
      CREATE TABLE health_vital_state (
        account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
        zone TEXT NOT NULL
      ) STRICT;
      """)
}
