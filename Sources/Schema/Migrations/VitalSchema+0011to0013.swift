import Storage

// Frozen: the DDL each migration shipped with, as text. Never edit a shipped migration and
// never build one from today's table descriptions: a change is a new migration.
extension VitalSchema.Shipped {
  /// Totals count each moment once across sources: sources get a kind and a rank, and what
  /// each counts is kept per quarter hour (counted on first read from the samples already in).
  static let healthSources = Migration(
    "0011_health_sources",
    sql: """
      CREATE TABLE health_source (
        -- Sources of health samples (the export's sourceName), the kind of device each is, and the
        -- place the user preferred it at; totals count the highest-ranked source per moment.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        preferred INTEGER,
        PRIMARY KEY (account_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE health_counted (
        -- Derived from health_sample, never synced: what each source counts toward a cumulative
        -- type per UTC day (days since 1970), as 96 quarter hours of little-endian doubles.
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        day INTEGER NOT NULL,
        source TEXT NOT NULL,
        quarters BLOB NOT NULL,
        PRIMARY KEY (account_id, type, day, source)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE health_counted_state (
        account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
        ranking TEXT NOT NULL,
        longest_ms INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE replica_changed_day (
        -- UTC days whose rows changed (datasets with a span), until a cache derived from them catches up.
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        dataset TEXT NOT NULL,
        day TEXT NOT NULL,
        PRIMARY KEY (account_id, dataset, day)
      ) STRICT, WITHOUT ROWID;
      """)

  /// Every command's changes are journaled on the device that made them, for `vital undo`.
  static let changeJournal = Migration(
    "0012_change_journal",
    sql: """
      CREATE TABLE change_log (
        -- The changes commands made on this device, for 'vital undo' (never synced).
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        command TEXT NOT NULL,
        undoes TEXT,
        undone_by TEXT
      ) STRICT;
      CREATE INDEX change_log_account ON change_log(account_id, seq);
      CREATE TABLE change_step (
        -- What one change did to one record, with the clock it wrote.
        change_id TEXT NOT NULL REFERENCES change_log(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        action TEXT NOT NULL,
        dataset TEXT NOT NULL,
        row_id TEXT NOT NULL,
        hlc TEXT NOT NULL,
        fields TEXT NOT NULL,
        PRIMARY KEY (change_id, n)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE change_before (
        -- The values a change replaced, so an undo can put them back.
        change_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        field TEXT NOT NULL,
        value ANY,
        PRIMARY KEY (change_id, n, field),
        FOREIGN KEY (change_id, n) REFERENCES change_step(change_id, n) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      """)

  /// Ids made from content (a day's activity, a sample, a catalogue goal) are the same for two
  /// accounts importing the same file: every synced table is keyed by (account, id) now.
  static let idsPerAccount = Migration(
    "0013_ids_per_account",
    rebuilding: [
      "profile": """
      CREATE TABLE profile (
        -- One per account; its id is derived from the email, so every device of a user has the same one.
        -- avatar_sha256 points at blob(account_id, sha256) but is no foreign key: synced rows may
        -- arrive in any order.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL UNIQUE REFERENCES account(id) ON DELETE CASCADE,
        name TEXT,
        surname TEXT,
        abo TEXT CHECK (abo IN ('A', 'B', 'AB', 'O')),
        rhesus TEXT CHECK (rhesus IN ('+', '-')),
        sex TEXT CHECK (sex IN ('female', 'male')),
        birth_date TEXT,
        weight_kg REAL CHECK (weight_kg > 0),
        region TEXT NOT NULL DEFAULT 'de' CHECK (region IN ('de', 'us', 'uk')),
        avatar_sha256 TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      """,
      "donation": """
      CREATE TABLE donation (
        -- Appointments, completed donations and cancelled appointments.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('whole-blood', 'plasma', 'platelets', 'double-red')),
        status TEXT NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled')),
        scheduled_at TEXT,
        completed_at TEXT,
        place TEXT NOT NULL,
        notes TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (account_id, id),
        CHECK (status <> 'completed' OR completed_at IS NOT NULL),
        CHECK (status <> 'scheduled' OR scheduled_at IS NOT NULL)
      ) STRICT;
      CREATE INDEX donation_account_date ON donation(account_id, coalesce(completed_at, scheduled_at));
      """,
      "questionnaire": """
      CREATE TABLE questionnaire (
        -- Eligibility questionnaires as taken; reasons and answers are JSON.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        taken_at TEXT NOT NULL,
        eligible INTEGER NOT NULL CHECK (eligible IN (0, 1)),
        deferred_until TEXT,
        reasons TEXT NOT NULL,
        answers TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX questionnaire_account_taken ON questionnaire(account_id, taken_at);
      """,
      "period": """
      CREATE TABLE period (
        -- Logged periods; an ongoing one has no end.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        start TEXT NOT NULL,
        "end" TEXT,
        PRIMARY KEY (account_id, id),
        CHECK ("end" IS NULL OR "end" >= start)
      ) STRICT;
      CREATE INDEX period_account_start ON period(account_id, start);
      """,
      "medication": """
      CREATE TABLE medication (
        -- Schedules as `HH:MM,...` and `mon,tue,...`; stock counts down from `stock` by the doses taken
        -- after `stock_set_at`, so takes on two devices both count.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        times TEXT NOT NULL,
        days TEXT,
        dose TEXT,
        stock INTEGER,
        stock_set_at TEXT,
        refill_at INTEGER,
        since TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX medication_account ON medication(account_id, name);
      """,
      "dose": """
      CREATE TABLE dose (
        -- A dose event's id is its medication and scheduled time, so the same dose recorded on two
        -- devices is one record.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        medication_id TEXT NOT NULL,
        medication TEXT NOT NULL,
        dose TEXT,
        scheduled_at TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('taken', 'skipped')),
        at TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX dose_account_medication ON dose(account_id, medication_id, scheduled_at);
      """,
      "health_sample": """
      CREATE TABLE health_sample (
        -- Apple Health Records. Ids are made from the content, so importing again, or on a second
        -- device, adds nothing.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        value ANY,
        unit TEXT,
        source TEXT,
        start TEXT NOT NULL,
        "end" TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX health_sample_type_start ON health_sample(account_id, type, start);
      """,
      "workout": """
      CREATE TABLE workout (
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        duration_s REAL,
        distance_m REAL,
        energy_kcal REAL,
        source TEXT,
        start TEXT NOT NULL,
        "end" TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX workout_start ON workout(account_id, start);
      """,
      "activity_summary": """
      CREATE TABLE activity_summary (
        -- Apple Watch daily activity rings.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        move_kcal REAL,
        move_kcal_goal REAL,
        move_minutes REAL,
        move_minutes_goal REAL,
        exercise_minutes REAL,
        exercise_goal REAL,
        stand_hours REAL,
        stand_goal REAL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX activity_summary_date ON activity_summary(account_id, date);
      """,
      "goal": """
      CREATE TABLE goal (
        -- Goals for steps and distances (metres).
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL CHECK (type IN ('steps', 'walking-distance', 'running-distance')),
        target REAL NOT NULL CHECK (target > 0),
        title TEXT,
        description TEXT,
        reward TEXT,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      """,
      "area_watch": """
      CREATE TABLE area_watch (
        -- Watched places (synced).
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        lat REAL NOT NULL,
        lon REAL NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      """,
    ])
}
