import Replication
import Storage

extension HealthStore {
  public static let samples = Table(
    "health_sample",
    comment: """
      Apple Health Records. Ids are made from the content, so importing again, or on a second
      device, adds nothing.
      """,
    Sample.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"], withoutRowID: true,
    indexes: [
      "health_sample_type_start": "account_id, type, start",
      // Sleep's columns beside their keys: a year of nights is read from the index alone, not
      // row by row from a table stored in the order of ids.
      "health_sample_sleep": "account_id, type, start, \"end\", value, source WHERE \(sleepSamples)",
    ])

  /// The rows `health_sample_sleep` holds: a query names them in these words to read it.
  static let sleepSamples = "type = '\(SleepState.type)'"

  /// Where samples come from. The id is made from the name (`HealthSource.id`), unique per
  /// account: two accounts in one home may both have "Anna's iPhone".
  public static let sources = Table(
    "health_source",
    comment: """
      Sources of health samples (the export's sourceName), the kind of device each is, and the
      place the user preferred it at; totals count the highest-ranked source per moment.
      """,
    HealthSource.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"], withoutRowID: true)

  /// What each source counts per quarter hour: derived from `health_sample`, never synced.
  public static let counted = Table(
    "health_counted",
    comment: """
      Derived from health_sample, never synced: what each source counts toward a cumulative
      type per UTC day (days since 1970), as 96 quarter hours of little-endian doubles.
      """,
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("type", "NOT NULL"),
      .integer("day", "NOT NULL"), .text("source", "NOT NULL"), .blob("quarters", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, type, day, source)"], withoutRowID: true)

  /// The ranking `health_counted` was computed with, and the longest cumulative sample seen.
  public static let countedState = Table(
    "health_counted_state",
    [
      .text("account_id", "PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE"), .text("ranking", "NOT NULL"),
      .integer("longest_ms", "NOT NULL"),
    ])

  /// Each local day's readings of a vital kind added up: derived from `health_sample`, never synced.
  public static let vitalDays = Table(
    "health_vital_day",
    comment: """
      Derived from health_sample, never synced: each local day's readings of a vital kind added
      up (the second number of blood pressure in d_*), the days without readings too (count 0),
      in the zone health_vital_state names; sources joined by U+001F.
      """,
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("type", "NOT NULL"),
      .text("day", "NOT NULL"), .integer("count", "NOT NULL"), .real("minimum"), .real("maximum"), .real("sum"),
      .integer("d_count", "NOT NULL"), .real("d_minimum"), .real("d_maximum"), .real("d_sum"),
      .text("sources", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, type, day)"], withoutRowID: true)

  /// The zone `health_vital_day` counted its days in.
  public static let vitalDaysState = Table(
    "health_vital_state",
    [.text("account_id", "PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE"), .text("zone", "NOT NULL")])

  public static let workouts = Table(
    "workout",
    Workout.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["workout_start": "account_id, start"])

  public static let workoutRoutes = Table(
    "workout_route", comment: "A workout's route in parts of at most 10,000 points (`ms,lat,lon,ele` lines).",
    WorkoutRoute.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["workout_route_workout": "account_id, workout_id, part"])

  public static let activitySummaries = Table(
    "activity_summary", comment: "Apple Watch daily activity rings.",
    ActivitySummary.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["activity_summary_date": "account_id, date"])
}

extension Dataset {
  public static let healthSample = Dataset(
    HealthStore.samples, span: .init(start: "start", end: "end"),
    rules: HealthStore.Sample.shape.rules,
    recordRules: [
      .order(earlier: "start", later: "end"),
      // What is added up is a count or an amount: never negative, never a typo's zeros.
      .numberWhen(field: "type", in: HealthType.cumulative, number: "value", range: 0...HealthType.largestSample),
    ])
  public static let healthSource = Dataset(
    HealthStore.sources, rules: HealthSource.shape.rules)
  public static let workout = Dataset(
    HealthStore.workouts, rules: HealthStore.Workout.shape.rules, recordRules: [.order(earlier: "start", later: "end")])
  public static let workoutRoute = Dataset(HealthStore.workoutRoutes, rules: WorkoutRoute.shape.rules)
  public static let activitySummary = Dataset(
    HealthStore.activitySummaries, rules: HealthStore.ActivitySummary.shape.rules)
}
