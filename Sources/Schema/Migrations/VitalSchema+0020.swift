import Storage

// Frozen: the DDL each migration shipped with, as text (see VitalSchema+0014to0019.swift).
extension VitalSchema.Shipped {
  /// Workouts' routes from the export's GPX files, in parts.
  static let workoutRoutes = Migration(
    "0020_workout_routes",
    sql: """
      CREATE TABLE workout_route (
        -- A workout's route in parts of at most 10,000 points (`ms,lat,lon,ele` lines).
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
        workout_id TEXT NOT NULL,
        part INTEGER NOT NULL,
        start TEXT NOT NULL,
        count INTEGER NOT NULL,
        ascent_m REAL,
        points TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      ) STRICT;
      CREATE INDEX workout_route_workout ON workout_route(account_id, workout_id, part);
      """)
}
