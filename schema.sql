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
