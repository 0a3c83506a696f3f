import Core
import Foundation
import Replication
import Storage

// Health data as it is stored, synced and exported: each kind's columns, with the rules its
// values keep (`HealthStore+Tables`).

extension HealthStore {
  /// A workout as the export gives it: the activity, what it added up to, where it came from.
  public struct Workout: Equatable, Sendable {
    public var id = ""
    /// `HKWorkoutActivityTypeRunning`, ...
    public var type = ""
    public var durationSeconds: Double?
    public var distanceMetres: Double?
    public var energyKcal: Double?
    public var source: String?
    public var start = Date(timeIntervalSince1970: 0)
    public var end = Date(timeIntervalSince1970: 0)

    public init() {}
  }

  /// A day's Apple Watch activity rings.
  public struct ActivitySummary: Equatable, Sendable {
    public var id = ""
    public var date = LocalDate(ordinal: 0)
    public var rings = ActivityDay()

    public init() {}
  }
}

extension HealthStore.Sample {
  public static let shape = RecordShape<HealthStore.Sample>(
    blank: {
      HealthStore.Sample(
        id: "", type: "", value: nil, text: nil, unit: nil, source: "", start: Date(timeIntervalSince1970: 0),
        end: Date(timeIntervalSince1970: 0))
    },
    [
      .text("id", \.id), .text("type", \.type, rule: .text(maxBytes: 200)),
      // A number, or text: a blood pressure, a sleep state, what an older Vital or another
      // program stored.
      .init(
        "value", "ANY", rule: .numberOrText(-1e12...1e12, maxBytes: 2000), onFault: .missing, \.stored,
        write: { $0 }, read: { $0 }),
      .text("unit", \.unit, rule: .text(maxBytes: 100)),
      // An export's record without a source keeps none.
      .init(
        "source", "TEXT", rule: .text(maxBytes: 1000), \.source, write: { $0.isEmpty ? .null : .text($0) },
        read: { $0 == .null ? "" : String.fromDatabaseValue($0) }),
      .instant("start", \.start, years: 1970...2200), .instant("end", \.end, years: 1970...2200),
    ])

  package static let synced = shape.selection(Dataset.healthSample.fields)
}

extension HealthSource {
  public static let shape = RecordShape<HealthSource>(
    blank: { HealthSource(name: "", kind: .other) },
    [
      // The id is made from the name (`HealthSource.id(name:)`).
      .text("id", \.id), .text("name", \.name, rule: .text(maxBytes: 1000)),
      // A kind this Vital does not know ranks with the rest.
      .choice("kind", \.kind, onFault: .missing, checked: false), .integer("preferred", \.preferred, 0...1_000_000),
    ])
}

extension HealthStore.Workout {
  public static let shape = RecordShape<HealthStore.Workout>(
    blank: { HealthStore.Workout() },
    [
      .text("id", \.id), .text("type", \.type, rule: .text(maxBytes: 200)),
      .number("duration_s", \.durationSeconds, 0...10_000_000),
      .number("distance_m", \.distanceMetres, 0...100_000_000),
      .number("energy_kcal", \.energyKcal, 0...10_000_000), .text("source", \.source, rule: .text(maxBytes: 1000)),
      .instant("start", \.start, years: 1970...2200), .instant("end", \.end, years: 1970...2200),
    ])

  package static let synced = shape.selection(Dataset.workout.fields)
}

extension HealthStore.ActivitySummary {
  public static let shape = RecordShape<HealthStore.ActivitySummary>(
    blank: { HealthStore.ActivitySummary() },
    [
      .text("id", \.id), .day("date", \.date, years: 1970...2200),
      .number("move_kcal", \.rings.moveKcal, 0...1_000_000),
      .number("move_kcal_goal", \.rings.moveKcalGoal, 0...1_000_000),
      .number("move_minutes", \.rings.moveMinutes, 0...1440),
      .number("move_minutes_goal", \.rings.moveMinutesGoal, 0...1440),
      .number("exercise_minutes", \.rings.exerciseMinutes, 0...1440),
      .number("exercise_goal", \.rings.exerciseGoal, 0...1440), .number("stand_hours", \.rings.standHours, 0...24),
      .number("stand_goal", \.rings.standGoal, 0...24),
    ])

  package static let synced = shape.selection(Dataset.activitySummary.fields)
}
