/// A table whose rows sync: its key column and the fields that travel. Every other column is
/// local (the owning account, `updated_at` stamps, blob bytes that travel separately).
public struct Dataset: Hashable, Sendable {
  public let name: String
  public let table: String
  public let key: String
  public let fields: [String]
  /// A column set to the write time on every local or remote write, if the table has one.
  let stamp: String?

  public static let profile = Dataset(
    name: "profile", table: "profile", key: "id",
    fields: ["name", "surname", "abo", "rhesus", "sex", "birth_date", "weight_kg", "region", "avatar_sha256"],
    stamp: "updated_at")
  public static let blob = Dataset(
    name: "blob", table: "blob", key: "sha256", fields: ["mime", "width", "height"], stamp: "created_at")
  public static let questionnaire = Dataset(
    name: "questionnaire", table: "questionnaire", key: "id",
    fields: ["taken_at", "eligible", "deferred_until", "reasons", "answers"], stamp: nil)
  public static let donation = Dataset(
    name: "donation", table: "donation", key: "id",
    fields: ["kind", "status", "scheduled_at", "completed_at", "place", "notes"], stamp: "updated_at")

  public static let period = Dataset(name: "period", table: "period", key: "id", fields: ["start", "end"], stamp: nil)
  public static let medication = Dataset(
    name: "medication", table: "medication", key: "id",
    fields: ["name", "times", "days", "dose", "stock", "stock_set_at", "refill_at", "since"], stamp: nil)
  public static let dose = Dataset(
    name: "dose", table: "dose", key: "id",
    fields: ["medication_id", "medication", "dose", "scheduled_at", "status", "at"], stamp: nil)

  public static let healthSample = Dataset(
    name: "health_sample", table: "health_sample", key: "id",
    fields: ["type", "value", "unit", "source", "start", "end"], stamp: nil)
  public static let workout = Dataset(
    name: "workout", table: "workout", key: "id",
    fields: ["type", "duration_s", "distance_m", "energy_kcal", "source", "start", "end"], stamp: nil)
  public static let activitySummary = Dataset(
    name: "activity_summary", table: "activity_summary", key: "id",
    fields: [
      "date", "move_kcal", "move_kcal_goal", "move_minutes", "move_minutes_goal", "exercise_minutes", "exercise_goal",
      "stand_hours", "stand_goal",
    ], stamp: nil)
  public static let goal = Dataset(
    name: "goal", table: "goal", key: "id", fields: ["type", "target", "title", "description", "reward"], stamp: nil)

  public static let areaWatch = Dataset(
    name: "area_watch", table: "area_watch", key: "id", fields: ["label", "lat", "lon"], stamp: nil)

  /// Every synced dataset, in the order a new device applies them (blobs before the profile
  /// that points at them).
  public static let all: [Dataset] = [
    .blob, .profile, .questionnaire, .donation, .period, .medication, .dose, .healthSample, .workout, .activitySummary,
    .goal, .areaWatch,
  ]

  public static func named(_ name: String) -> Dataset? { all.first { $0.name == name } }
}
