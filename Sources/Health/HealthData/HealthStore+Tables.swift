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
      .text("id", "PRIMARY KEY"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("type", "NOT NULL"), .any("value"), .text("unit"), .text("source"), .text("start", "NOT NULL"),
      .text("end", "NOT NULL"),
    ], withoutRowID: true, indexes: ["health_sample_type_start": "account_id, type, start"])

  public static let workouts = Table(
    "workout",
    [
      .text("id", "PRIMARY KEY"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("type", "NOT NULL"), .real("duration_s"), .real("distance_m"), .real("energy_kcal"), .text("source"),
      .text("start", "NOT NULL"), .text("end", "NOT NULL"),
    ], indexes: ["workout_start": "account_id, start"])

  public static let activitySummaries = Table(
    "activity_summary", comment: "Apple Watch daily activity rings.",
    [
      .text("id", "PRIMARY KEY"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("date", "NOT NULL"), .real("move_kcal"), .real("move_kcal_goal"), .real("move_minutes"),
      .real("move_minutes_goal"), .real("exercise_minutes"), .real("exercise_goal"), .real("stand_hours"),
      .real("stand_goal"),
    ], indexes: ["activity_summary_date": "account_id, date"])
}

extension Dataset {
  public static let healthSample = Dataset(HealthStore.samples)
  public static let workout = Dataset(HealthStore.workouts)
  public static let activitySummary = Dataset(HealthStore.activitySummaries)
}
