import Foundation

/// The body's measurements Apple Health keeps (and Gadgetbridge, later), each read in one unit
/// whatever the export wrote: bpm, ms, kg, mmHg, %, breaths per minute.
public enum VitalKind: String, CaseIterable, Sendable {
  case heartRate = "heart-rate"
  case restingHeartRate = "resting-heart-rate"
  case hrv
  case weight
  case bloodPressure = "blood-pressure"
  case spo2
  case respiratoryRate = "respiratory-rate"

  /// The sample type it is stored under.
  public var type: String {
    switch self {
    case .heartRate: "HKQuantityTypeIdentifierHeartRate"
    case .restingHeartRate: "HKQuantityTypeIdentifierRestingHeartRate"
    case .hrv: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
    case .weight: "HKQuantityTypeIdentifierBodyMass"
    case .bloodPressure: BloodPressure.correlationType
    case .spo2: "HKQuantityTypeIdentifierOxygenSaturation"
    case .respiratoryRate: "HKQuantityTypeIdentifierRespiratoryRate"
    }
  }

  public var unit: String {
    switch self {
    case .heartRate, .restingHeartRate: "bpm"
    case .hrv: "ms"
    case .weight: "kg"
    case .bloodPressure: "mmHg"
    case .spo2: "%"
    case .respiratoryRate: "breaths/min"
    }
  }

  public var label: String {
    switch self {
    case .heartRate: "heart rate"
    case .restingHeartRate: "resting heart rate"
    case .hrv: "heart rate variability (SDNN)"
    case .weight: "weight"
    case .bloodPressure: "blood pressure"
    case .spo2: "blood oxygen"
    case .respiratoryRate: "respiratory rate"
    }
  }

  /// A stored number in this kind's unit; nil when it was stored in a unit this kind does not
  /// read, or is no plausible value of it (a typo's 7000 bpm stays out of every average).
  public func value(_ number: Double, unit: String?) -> Double? {
    guard number.isFinite else { return nil }
    let converted: Double?
    switch self {
    case .heartRate, .restingHeartRate, .respiratoryRate:
      converted =
        ["count/min", "bpm", "/min"].contains(unit ?? "count/min") ? number : unit == "count/s" ? number * 60 : nil
    case .hrv:
      converted = unit == nil || unit == "ms" ? number : unit == "s" ? number * 1000 : nil
    case .weight:
      converted = HealthType.kilograms[unit ?? "kg"].map { number * $0 }
    case .spo2:
      // Apple Health keeps a fraction (0.97) with the unit "%".
      converted = unit == nil || unit == "%" ? (number <= 1 ? number * 100 : number) : nil
    case .bloodPressure:
      converted = nil
    }
    guard let converted, plausible.contains(converted) else { return nil }
    return converted
  }

  /// What a reading of this kind can be at all, in its unit.
  public var plausible: ClosedRange<Double> {
    switch self {
    case .heartRate, .restingHeartRate: 15...300
    case .hrv: 0...1000
    case .weight: 1...700
    case .bloodPressure: 20...300
    case .spo2: 30...100
    case .respiratoryRate: 1...120
    }
  }

  /// The name a person types: `heart-rate`, also `hr`, `pulse`, `bp`, `weight`, `spo2`.
  public init?(name: String) {
    let aliases: [String: VitalKind] = [
      "hr": .heartRate, "pulse": .heartRate, "rhr": .restingHeartRate, "resting-hr": .restingHeartRate,
      "bp": .bloodPressure, "body-mass": .weight, "oxygen": .spo2, "blood-oxygen": .spo2,
      "breathing": .respiratoryRate, "sdnn": .hrv,
    ]
    guard let kind = VitalKind(rawValue: name.lowercased()) ?? aliases[name.lowercased()] else { return nil }
    self = kind
  }
}
