import Storage

/// The Apple Health identifiers Vital totals, and the unit conversions it applies on import.
public enum HealthType {
  public static let steps = "HKQuantityTypeIdentifierStepCount"
  public static let walkingRunningDistance = "HKQuantityTypeIdentifierDistanceWalkingRunning"
  public static let activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"
  public static let exerciseTime = "HKQuantityTypeIdentifierAppleExerciseTime"
  public static let menstrualFlow = "HKCategoryTypeIdentifierMenstrualFlow"
  public static let running = "HKWorkoutActivityTypeRunning"
  public static let bodyMass = "HKQuantityTypeIdentifierBodyMass"
  public static let heartRate = "HKQuantityTypeIdentifierHeartRate"

  /// The types whose samples are added up (counted once across sources per moment).
  public static let cumulative = [steps, walkingRunningDistance, activeEnergy, exerciseTime]
  /// The most one sample of an added-up type may hold: a day's worth of anything, many times over.
  public static let largestSample = 10_000_000.0

  /// The quantities `vital health add --type` takes (by the names of `HealthTotals.Measure`),
  /// with the identifier and unit they store.
  public static let manual: [(name: String, type: String, unit: String)] = [
    ("steps", steps, "count"), ("distance", walkingRunningDistance, "m"), ("energy", activeEnergy, "kcal"),
    ("exercise", exerciseTime, "min"),
  ]

  /// The identifier a quantity's samples are stored under.
  public static func identifier(_ measure: HealthTotals.Measure) -> String {
    manual.first { $0.name == measure.rawValue }!.type
  }

  /// Metres per unit of length; kilocalories per unit of energy; seconds per unit of time.
  package static let metres: [String: Double] = [
    "m": 1, "km": 1000, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "yd": 0.9144,
  ]
  package static let kilocalories: [String: Double] = [
    "kcal": 1, "Cal": 1, "cal": 0.001, "kJ": 1 / 4.184, "J": 1 / 4184,
  ]
  /// Kilograms per unit of body mass.
  package static let kilograms: [String: Double] = ["kg": 1, "g": 0.001, "lb": 0.45359237, "st": 6.35029318]
  package static let seconds: [String: Double] = ["s": 1, "min": 60, "hr": 3600, "h": 3600, "ms": 0.001]

  /// A value in Vital's unit for its type: distances in metres, energy in kilocalories.
  package static func normalise(type: String, value: Double, unit: String?) -> (Double, String?) {
    guard let unit else { return (value, nil) }
    if type.hasPrefix("HKQuantityTypeIdentifierDistance"), let f = metres[unit] { return (value * f, "m") }
    if type.hasSuffix("EnergyBurned"), let f = kilocalories[unit] { return (value * f, "kcal") }
    return (value, unit)
  }

  /// Whole numbers are stored as integers: JSON does not tell 72 from 72.0, so a value that
  /// synced must come back with the type it left with.
  package static func stored(_ value: Double) -> DatabaseValue {
    value == value.rounded() && abs(value) < 9e15 ? .integer(Int64(value)) : .real(value)
  }
}
