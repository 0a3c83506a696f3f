import Storage

// Frozen: the DDL each migration shipped with, as text (see VitalSchema+0014to0019.swift).
extension VitalSchema.Shipped {
  /// A column that holds one of more than two words is checked with comparisons, not `IN`:
  /// SQLite 3.40 builds the `IN` list's lookup table again for every row it writes, and the
  /// donation table's two such checks doubled the time its rows took to insert. The rows are
  /// the same; each table is rebuilt because SQLite cannot change a check in place.
  static let choiceChecks = Migration(
    "0023_choice_checks",
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
        abo TEXT CHECK (abo = 'A' OR abo = 'B' OR abo = 'AB' OR abo = 'O'),
        rhesus TEXT CHECK (rhesus IN ('+', '-')),
        sex TEXT CHECK (sex IN ('female', 'male')),
        birth_date TEXT,
        weight_kg REAL CHECK (weight_kg > 0),
        region TEXT NOT NULL DEFAULT 'de' CHECK (region = 'de' OR region = 'us' OR region = 'uk'),
        avatar_sha256 TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      """,
      "goal": """
      CREATE TABLE goal (
        -- Goals for steps and distances (metres).
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        type TEXT NOT NULL CHECK (type = 'steps' OR type = 'walking-distance' OR type = 'running-distance'),
        target REAL NOT NULL CHECK (target > 0),
        title TEXT,
        description TEXT,
        reward TEXT,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      """,
      "donation": """
      CREATE TABLE donation (
        -- Appointments, completed donations and cancelled appointments.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind = 'whole-blood' OR kind = 'plasma' OR kind = 'platelets' OR kind = 'double-red'),
        status TEXT NOT NULL CHECK (status = 'scheduled' OR status = 'completed' OR status = 'cancelled'),
        scheduled_at TEXT,
        completed_at TEXT,
        place TEXT NOT NULL,
        notes TEXT,
        updated_at TEXT NOT NULL,
        hb_g_dl REAL,
        ferritin_ng_ml REAL,
        bp_systolic INTEGER,
        bp_diastolic INTEGER,
        pulse_bpm INTEGER,
        PRIMARY KEY (account_id, id),
        CHECK (status <> 'completed' OR completed_at IS NOT NULL),
        CHECK (status <> 'scheduled' OR scheduled_at IS NOT NULL)
      ) STRICT;
      CREATE INDEX donation_account_date ON donation(account_id, coalesce(completed_at, scheduled_at) DESC, id);
      """,
      "cycle_note": """
      CREATE TABLE cycle_note (
        -- What a person noted about a day of the cycle. The id is the day, so devices noting one day write one record.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        flow TEXT CHECK (flow = 'spotting' OR flow = 'light' OR flow = 'medium' OR flow = 'heavy'),
        temperature REAL,
        temperature_time TEXT,
        temperature_excluded INTEGER NOT NULL DEFAULT 0 CHECK (temperature_excluded IN (0, 1)),
        mucus TEXT CHECK (mucus = 'dry' OR mucus = 'moist' OR mucus = 'sticky' OR mucus = 'creamy' OR mucus = 'eggwhite'),
        pain TEXT,
        mood TEXT,
        sex TEXT CHECK (sex IN ('protected', 'unprotected')),
        text TEXT,
        PRIMARY KEY (account_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX cycle_note_account_date ON cycle_note(account_id, date);
      """,
      "cycle_pause": """
      CREATE TABLE cycle_pause (
        -- Stretches without predictions (pregnancy, contraception, ...); an open one has no end.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        start TEXT NOT NULL,
        "end" TEXT,
        reason TEXT NOT NULL CHECK (reason = 'pregnancy' OR reason = 'breastfeeding' OR reason = 'contraception' OR reason = 'other'),
        PRIMARY KEY (account_id, id),
        CHECK ("end" IS NULL OR "end" >= start)
      ) STRICT;
      """,
    ])
}
