import Storage

// Frozen: the DDL each migration shipped with, as text. Never edit a shipped migration and
// never build one from today's table descriptions: a change is a new migration.
// 0001 to 0009 as the release that first described each table in Swift wrote them (44aa7c5);
// they differ from the first releases' SQL in comments only.
extension VitalSchema.Shipped {
  /// The device's id and clock.
  static let meta = Migration(
    "0001_meta",
    sql: """
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
      INSERT INTO meta (key, value) VALUES ('device_id', lower(hex(randomblob(8))));
      """)

  /// Local accounts, their sessions, profiles and avatars.
  static let accounts = Migration(
    "0002_accounts",
    sql: """
      CREATE TABLE account (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        name TEXT,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        failed_logins INTEGER NOT NULL DEFAULT 0,
        locked_until TEXT
      ) STRICT;
      CREATE TABLE session (
        token_sha256 TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        last_used_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX session_account ON session(account_id);
      CREATE TABLE blob (
        -- Binary data (avatars), stored once per account by SHA-256.
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        sha256 TEXT NOT NULL,
        mime TEXT NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        data BLOB NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (account_id, sha256)
      ) STRICT;
      CREATE TABLE profile (
        -- One per account; its id is derived from the email, so every device of a user has the same one.
        -- avatar_sha256 points at blob(account_id, sha256) but is no foreign key: synced rows may
        -- arrive in any order.
        id TEXT PRIMARY KEY,
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
        updated_at TEXT NOT NULL
      ) STRICT;
      """)

  /// Blood donations and eligibility questionnaires.
  static let donations = Migration(
    "0003_donations",
    sql: """
      CREATE TABLE donation (
        -- Appointments, completed donations and cancelled appointments.
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('whole-blood', 'plasma', 'platelets', 'double-red')),
        status TEXT NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled')),
        scheduled_at TEXT,
        completed_at TEXT,
        place TEXT NOT NULL,
        notes TEXT,
        updated_at TEXT NOT NULL,
        CHECK (status <> 'completed' OR completed_at IS NOT NULL),
        CHECK (status <> 'scheduled' OR scheduled_at IS NOT NULL)
      ) STRICT;
      CREATE INDEX donation_account_date ON donation(account_id, coalesce(completed_at, scheduled_at));
      CREATE TABLE questionnaire (
        -- Eligibility questionnaires as taken; reasons and answers are JSON.
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        taken_at TEXT NOT NULL,
        eligible INTEGER NOT NULL CHECK (eligible IN (0, 1)),
        deferred_until TEXT,
        reasons TEXT NOT NULL,
        answers TEXT NOT NULL
      ) STRICT;
      CREATE INDEX questionnaire_account_taken ON questionnaire(account_id, taken_at);
      """)

  /// Field clocks, the outbox and the server each account syncs with.
  static let sync = Migration(
    "0004_sync",
    sql: """
      CREATE TABLE sync_row (
        -- The clock of every synced field (`field=hlc;...`).
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        dataset TEXT NOT NULL,
        row_id TEXT NOT NULL,
        clocks TEXT NOT NULL,
        PRIMARY KEY (account_id, dataset, row_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE sync_outbox (
        -- Local changes not yet sent; field `*` is a whole record, read when it is sent.
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        dataset TEXT NOT NULL,
        row_id TEXT NOT NULL,
        field TEXT NOT NULL,
        value ANY,
        hlc TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sync_outbox_account ON sync_outbox(account_id, seq);
      CREATE TABLE sync_remote (
        -- The server each account syncs with.
        account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        token TEXT,
        cursor TEXT,
        last_sync TEXT
      ) STRICT;
      """)

  /// Periods, medications and doses.
  static let cycleMedications = Migration(
    "0005_cycle_medications",
    sql: """
      CREATE TABLE period (
        -- Logged periods; an ongoing one has no end.
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        start TEXT NOT NULL,
        "end" TEXT,
        CHECK ("end" IS NULL OR "end" >= start)
      ) STRICT;
      CREATE INDEX period_account_start ON period(account_id, start);
      CREATE TABLE medication (
        -- Schedules as `HH:MM,...` and `mon,tue,...`; stock counts down from `stock` by the doses taken
        -- after `stock_set_at`, so takes on two devices both count.
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        times TEXT NOT NULL,
        days TEXT,
        dose TEXT,
        stock INTEGER,
        stock_set_at TEXT,
        refill_at INTEGER,
        since TEXT NOT NULL
      ) STRICT;
      CREATE INDEX medication_account ON medication(account_id, name);
      CREATE TABLE dose (
        -- A dose event's id is its medication and scheduled time, so the same dose recorded on two
        -- devices is one record.
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        medication_id TEXT NOT NULL,
        medication TEXT NOT NULL,
        dose TEXT,
        scheduled_at TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('taken', 'skipped')),
        at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX dose_account_medication ON dose(account_id, medication_id, scheduled_at);
      """)
}
