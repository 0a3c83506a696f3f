import Storage

// Frozen: the DDL each migration shipped with, as text. Never edit a shipped migration and
// never build one from today's table descriptions: a change is a new migration.
extension VitalSchema.Shipped {
  /// Reminder sources and what `vital reminders notify` delivered.
  static let reminders = Migration(
    "0006_reminders",
    sql: """
      CREATE TABLE reminder_source (
        -- Which sources are on (per device: a notification shows on this screen).
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
        PRIMARY KEY (account_id, source)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE reminder_delivery (
        -- What `vital reminders notify` has delivered or reported missed.
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        reminder TEXT NOT NULL,
        due_at TEXT NOT NULL,
        delivered_at TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'missed')),
        PRIMARY KEY (account_id, reminder)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE reminder_run (
        -- When `vital reminders notify` last ran.
        account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
        last_run TEXT NOT NULL
      ) STRICT;
      """)

  /// Apple Health samples, workouts, activity summaries and goals.
  static let healthGoals = Migration(
    "0007_health_goals",
    sql: """
      CREATE TABLE health_sample (
        -- Apple Health Records. Ids are made from the content, so importing again, or on a second
        -- device, adds nothing.
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        value ANY,
        unit TEXT,
        source TEXT,
        start TEXT NOT NULL,
        "end" TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX health_sample_type_start ON health_sample(account_id, type, start);
      CREATE TABLE workout (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        duration_s REAL,
        distance_m REAL,
        energy_kcal REAL,
        source TEXT,
        start TEXT NOT NULL,
        "end" TEXT NOT NULL
      ) STRICT;
      CREATE INDEX workout_start ON workout(account_id, start);
      CREATE TABLE activity_summary (
        -- Apple Watch daily activity rings.
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        move_kcal REAL,
        move_kcal_goal REAL,
        move_minutes REAL,
        move_minutes_goal REAL,
        exercise_minutes REAL,
        exercise_goal REAL,
        stand_hours REAL,
        stand_goal REAL
      ) STRICT;
      CREATE INDEX activity_summary_date ON activity_summary(account_id, date);
      CREATE TABLE goal (
        -- Goals for steps and distances (metres).
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL CHECK (type IN ('steps', 'walking-distance', 'running-distance')),
        target REAL NOT NULL CHECK (target > 0),
        title TEXT,
        description TEXT,
        reward TEXT
      ) STRICT;
      """)

  /// Districts, their incidence, watched places and the R*Tree over the districts.
  static let areas = Migration(
    "0008_areas",
    sql: """
      CREATE TABLE area (
        -- Districts: reference data shared by the accounts on this device; the geometry packed as
        -- float64 [polygons, rings, points, lon, lat, ...].
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT,
        population INTEGER,
        geometry BLOB NOT NULL
      ) STRICT;
      CREATE TABLE area_stat (
        -- The latest incidence per district.
        area_id TEXT PRIMARY KEY,
        incidence REAL,
        as_of TEXT,
        imported_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE area_setting (
        -- Phase thresholds.
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
      CREATE TABLE area_watch (
        -- Watched places (synced).
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        lat REAL NOT NULL,
        lon REAL NOT NULL
      ) STRICT;
      CREATE TABLE area_watch_state (
        -- This device's last seen phase of each watched place.
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        watch_id TEXT NOT NULL,
        phase TEXT,
        checked_at TEXT NOT NULL,
        PRIMARY KEY (account_id, watch_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE area_notice (
        -- The phase changes this device noticed.
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        watch_id TEXT NOT NULL,
        label TEXT NOT NULL,
        from_phase TEXT,
        to_phase TEXT,
        at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX area_notice_at ON area_notice(account_id, at);
      CREATE VIRTUAL TABLE area_box USING rtree(id, min_lon, max_lon, min_lat, max_lat);
      """)

  /// End-to-end encrypted sync: the account's data key.
  static let syncKey = Migration(
    "0009_sync_key",
    sql: """
      CREATE TABLE sync_key (
        -- End-to-end encrypted sync: the account's data key (never printed, never sent unwrapped), its
        -- passphrase-wrapped form as the server keeps it, and the server it was last sent to.
        account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
        data_key BLOB NOT NULL,
        wrapped TEXT NOT NULL,
        uploaded_to TEXT
      ) STRICT;
      """)
}
