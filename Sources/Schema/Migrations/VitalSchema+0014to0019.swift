import Storage

// Frozen: the DDL each migration shipped with, as text. Never edit a shipped migration and
// never build one from today's table descriptions: a change is a new migration.
extension VitalSchema.Shipped {
  /// Records too large for the server are set aside instead of blocking the outbox.
  static let syncSetAside = Migration(
    "0014_sync_set_aside",
    sql: """
      CREATE TABLE sync_set_aside (
        -- Records held back from sync because they are too large for the server; sent again whole
        -- once every value fits (an edit that shortens them).
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        dataset TEXT NOT NULL,
        row_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (account_id, dataset, row_id)
      ) STRICT, WITHOUT ROWID;
      """)

  /// Medications taken as needed, tapers, pinned zones, pauses and snoozes; late doses that
  /// shift the rest of their day.
  static let medicationPlans = Migration(
    "0016_medication_plans",
    rebuilding: [
      "medication": """
      CREATE TABLE medication (
        -- Schedules as `HH:MM,...` and `mon,tue,...`; stock counts down from `stock` by the doses taken
        -- after `stock_set_at`, so takes on two devices both count. `steps` is a taper (`20 mg:7d,...`
        -- from `steps_start`), `zone` an IANA zone the times are pinned to (NULL: local), `past` the
        -- plans that edits ended (JSON), `pauses` `from/until;...` and `snooze` `scheduled/until` as
        -- ISO instants; `as_needed` medications have no times and limits in seconds and doses instead.
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
        steps TEXT,
        steps_start TEXT,
        then_keep INTEGER,
        zone TEXT,
        past TEXT,
        as_needed INTEGER,
        min_interval INTEGER,
        max_per_day INTEGER,
        min_gap INTEGER,
        expires TEXT,
        pauses TEXT,
        snooze TEXT,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX medication_account ON medication(account_id, name);
      """,
      "dose": """
      CREATE TABLE dose (
        -- A dose event's id is its medication and scheduled time, so the same dose recorded on two
        -- devices is one record (an as-needed dose's scheduled time is when it was taken). `shift`:
        -- seconds this late dose moved the rest of its day; `over_limit`: an as-needed dose taken
        -- past its limits; `recorded`: when it was written, for `meds undo`.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        medication_id TEXT NOT NULL,
        medication TEXT NOT NULL,
        dose TEXT,
        scheduled_at TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('taken', 'skipped')),
        at TEXT NOT NULL,
        shift INTEGER,
        over_limit INTEGER,
        recorded TEXT,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX dose_account_medication ON dose(account_id, medication_id, scheduled_at);
      """,
    ])

  /// What the blood service measured at a donation; history in an index in its own order.
  static let donationVitals = Migration(
    "0017_donation_vitals",
    rebuilding: [
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
      """
    ])

  /// Daily cycle notes (flow, temperature, mucus, ...), pauses, cycles left out by hand, and
  /// the time of the morning temperature reminder.
  static let cycleNotes = Migration(
    "0018_cycle_notes",
    creating: """
      CREATE TABLE cycle_note (
        -- What a person noted about a day of the cycle. The id is the day, so devices noting one day write one record.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        flow TEXT CHECK (flow IN ('spotting', 'light', 'medium', 'heavy')),
        temperature REAL,
        temperature_time TEXT,
        temperature_excluded INTEGER NOT NULL DEFAULT 0 CHECK (temperature_excluded IN (0, 1)),
        mucus TEXT CHECK (mucus IN ('dry', 'moist', 'sticky', 'creamy', 'eggwhite')),
        pain TEXT,
        mood TEXT,
        sex TEXT CHECK (sex IN ('protected', 'unprotected')),
        text TEXT,
        PRIMARY KEY (account_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX cycle_note_account_date ON cycle_note(account_id, date);
      CREATE TABLE cycle_pause (
        -- Stretches without predictions (pregnancy, contraception, ...); an open one has no end.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        start TEXT NOT NULL,
        "end" TEXT,
        reason TEXT NOT NULL CHECK (reason IN ('pregnancy', 'breastfeeding', 'contraception', 'other')),
        PRIMARY KEY (account_id, id),
        CHECK ("end" IS NULL OR "end" >= start)
      ) STRICT;
      """,
    rebuilding: [
      "period": """
      CREATE TABLE period (
        -- Logged periods; an ongoing one has no end.
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        start TEXT NOT NULL,
        "end" TEXT,
        excluded INTEGER NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1)),
        PRIMARY KEY (account_id, id),
        CHECK ("end" IS NULL OR "end" >= start)
      ) STRICT;
      CREATE INDEX period_account_start ON period(account_id, start);
      """,
      "reminder_source": """
      CREATE TABLE reminder_source (
        -- Which sources are on, and whether notifications are discreet (per device: they show on this screen).
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
        at TEXT,
        PRIMARY KEY (account_id, source)
      ) STRICT, WITHOUT ROWID;
      """,
    ])

  /// Records pulled from another device that fail their rules are kept out and listed.
  static let syncRefused = Migration(
    "0019_sync_refused",
    sql: """
      CREATE TABLE sync_refused (
        -- Records pulled from another device that failed their rules and were not applied; the
        -- newest refusal of each, until a valid version of it arrives.
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        dataset TEXT NOT NULL,
        row_id TEXT NOT NULL,
        field TEXT NOT NULL,
        reason TEXT NOT NULL,
        device TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (account_id, dataset, row_id)
      ) STRICT, WITHOUT ROWID;
      """)
}
