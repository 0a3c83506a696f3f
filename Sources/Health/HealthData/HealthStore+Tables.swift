import Replication
import Storage

extension HealthStore {
  public static let samples = Table(
    "health_sample",
    comment: """
      Apple Health Records. Ids are made from the content, so importing again, or on a second
      device, adds nothing.
      """,
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("type", "NOT NULL"), .any("value"), .text("unit"), .text("source"), .text("start", "NOT NULL"),
      .text("end", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], withoutRowID: true,
    indexes: ["health_sample_type_start": "account_id, type, start"])

  /// Where samples come from. The id is made from the name (`HealthSource.id`), unique per
  /// account: two accounts in one home may both have "Anna's iPhone".
  public static let sources = Table(
    "health_source",
    comment: """
      Sources of health samples (the export's sourceName), the kind of device each is, and the
      place the user preferred it at; totals count the highest-ranked source per moment.
      """,
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("name", "NOT NULL"), .text("kind", "NOT NULL"), .integer("preferred"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], withoutRowID: true)

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

  public static let workouts = Table(
    "workout",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("type", "NOT NULL"), .real("duration_s"), .real("distance_m"), .real("energy_kcal"), .text("source"),
      .text("start", "NOT NULL"), .text("end", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], indexes: ["workout_start": "account_id, start"])

  public static let activitySummaries = Table(
    "activity_summary", comment: "Apple Watch daily activity rings.",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("date", "NOT NULL"), .real("move_kcal"), .real("move_kcal_goal"), .real("move_minutes"),
      .real("move_minutes_goal"), .real("exercise_minutes"), .real("exercise_goal"), .real("stand_hours"),
      .real("stand_goal"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], indexes: ["activity_summary_date": "account_id, date"])
}

extension Dataset {
  public static let healthSample = Dataset(
    HealthStore.samples, span: .init(start: "start", end: "end"),
    rules: [
      "type": .text(maxBytes: 200), "value": .numberOrText(-1e12...1e12, maxBytes: 2000), "unit": .text(maxBytes: 100),
      "source": .text(maxBytes: 1000), "start": .instant(years: 1970...2200), "end": .instant(years: 1970...2200),
    ],
    recordRules: [
      .order(earlier: "start", later: "end"),
      // What is added up is a count or an amount: never negative, never a typo's zeros.
      .numberWhen(field: "type", in: HealthType.cumulative, number: "value", range: 0...HealthType.largestSample),
    ])
  public static let healthSource = Dataset(
    HealthStore.sources,
    rules: [
      "name": .text(maxBytes: 1000), "kind": .oneOf(HealthSource.Kind.allCases.map(\.rawValue)),
      "preferred": .integer(0...1_000_000),
    ])
  public static let workout = Dataset(
    HealthStore.workouts,
    rules: [
      "type": .text(maxBytes: 200), "duration_s": .number(0...10_000_000), "distance_m": .number(0...100_000_000),
      "energy_kcal": .number(0...10_000_000), "source": .text(maxBytes: 1000), "start": .instant(years: 1970...2200),
      "end": .instant(years: 1970...2200),
    ], recordRules: [.order(earlier: "start", later: "end")])
  public static let activitySummary = Dataset(
    HealthStore.activitySummaries,
    rules: [
      "date": .day(years: 1970...2200), "move_kcal": .number(0...1_000_000), "move_kcal_goal": .number(0...1_000_000),
      "move_minutes": .number(0...1440), "move_minutes_goal": .number(0...1440), "exercise_minutes": .number(0...1440),
      "exercise_goal": .number(0...1440), "stand_hours": .number(0...24), "stand_goal": .number(0...24),
    ])
}
