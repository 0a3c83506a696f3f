-- Vital's current schema, as the migrations in Sources/Storage/Migrations build it.
-- Read-only documentation: a test fails when this file and the migrations disagree.

CREATE TABLE schema_migration (
  name TEXT PRIMARY KEY,
  applied_at TEXT NOT NULL
) STRICT;

CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

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

-- Binary data (avatars), stored once per account by SHA-256.
CREATE TABLE blob (
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,
  mime TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  data BLOB NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (account_id, sha256)
) STRICT;

-- One per account; its id is derived from the email, so every device of a user has the same one.
-- avatar_sha256 points at blob(account_id, sha256) but is no foreign key: synced rows may
-- arrive in any order.
CREATE TABLE profile (
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

-- Donations: appointments, completed donations and cancelled appointments.
CREATE TABLE donation (
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

-- Eligibility questionnaires as taken; reasons and answers are JSON.
CREATE TABLE questionnaire (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  taken_at TEXT NOT NULL,
  eligible INTEGER NOT NULL CHECK (eligible IN (0, 1)),
  deferred_until TEXT,
  reasons TEXT NOT NULL,
  answers TEXT NOT NULL
) STRICT;
CREATE INDEX questionnaire_account_taken ON questionnaire(account_id, taken_at);

-- Sync: the clock of every synced field (`field=hlc;...`), the outbox of local changes not yet
-- sent, and the server each account syncs with.
CREATE TABLE sync_row (
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  dataset TEXT NOT NULL,
  row_id TEXT NOT NULL,
  clocks TEXT NOT NULL,
  PRIMARY KEY (account_id, dataset, row_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE sync_outbox (
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
  account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  token TEXT,
  cursor TEXT,
  last_sync TEXT
) STRICT;

-- Cycle: logged periods (an ongoing one has no end). Medications: schedules as `HH:MM,...`
-- and `mon,tue,...`; stock counts down from `stock` by the doses taken after `stock_set_at`,
-- so takes on two devices both count. A dose event's id is its medication and scheduled time,
-- so the same dose recorded on two devices is one record.
CREATE TABLE period (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  start TEXT NOT NULL,
  "end" TEXT,
  CHECK ("end" IS NULL OR "end" >= start)
) STRICT;
CREATE INDEX period_account_start ON period(account_id, start);

CREATE TABLE medication (
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

-- Reminders: which sources are on (per device: a notification shows on this screen), what
-- `vital reminders notify` has delivered or reported missed, and when it last ran.
CREATE TABLE reminder_source (
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  PRIMARY KEY (account_id, source)
) STRICT, WITHOUT ROWID;

CREATE TABLE reminder_delivery (
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  reminder TEXT NOT NULL,
  due_at TEXT NOT NULL,
  delivered_at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'missed')),
  PRIMARY KEY (account_id, reminder)
) STRICT, WITHOUT ROWID;

CREATE TABLE reminder_run (
  account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
  last_run TEXT NOT NULL
) STRICT;

-- Apple Health: samples (Records), workouts and daily activity summaries, with ids made from
-- their content so a re-import or a second device's import adds nothing. Goals for steps and
-- distances (metres).
CREATE TABLE health_sample (
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
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('steps', 'walking-distance', 'running-distance')),
  target REAL NOT NULL CHECK (target > 0),
  title TEXT,
  description TEXT,
  reward TEXT
) STRICT;

-- Regional incidence: districts (reference data shared by the accounts on this device; the
-- geometry packed as float64 [polygons, rings, points, lon, lat, ...]) with an R*Tree of their
-- boxes, the latest incidence per district, phase thresholds, and watched places (synced) with
-- this device's last seen phase and the phase changes it noticed.
CREATE TABLE area (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT,
  population INTEGER,
  geometry BLOB NOT NULL
) STRICT;

CREATE VIRTUAL TABLE area_box USING rtree(id, min_lon, max_lon, min_lat, max_lat);

CREATE TABLE area_stat (
  area_id TEXT PRIMARY KEY,
  incidence REAL,
  as_of TEXT,
  imported_at TEXT NOT NULL
) STRICT;

CREATE TABLE area_setting (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE area_watch (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  lat REAL NOT NULL,
  lon REAL NOT NULL
) STRICT;

CREATE TABLE area_watch_state (
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  watch_id TEXT NOT NULL,
  phase TEXT,
  checked_at TEXT NOT NULL,
  PRIMARY KEY (account_id, watch_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE area_notice (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  watch_id TEXT NOT NULL,
  label TEXT NOT NULL,
  from_phase TEXT,
  to_phase TEXT,
  at TEXT NOT NULL
) STRICT;
CREATE INDEX area_notice_at ON area_notice(account_id, at);

-- End-to-end encrypted sync: the account's data key (never printed, never sent unwrapped),
-- its passphrase-wrapped form as the server keeps it, and the server it was last sent to.
CREATE TABLE sync_key (
  account_id TEXT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
  data_key BLOB NOT NULL,
  wrapped TEXT NOT NULL,
  uploaded_to TEXT
) STRICT;
