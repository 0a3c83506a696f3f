import Core
import Foundation
import Records
import Storage

extension FHIRBundle {
  /// A blood pressure reading at its moment: the panel, systolic and diastolic as components.
  static func bloodPressure(_ reading: HealthStore.VitalReading, subject: JSON) -> [(String, JSON)] {
    func component(_ code: (code: String, display: String), _ value: Double) -> JSON {
      .object([
        ("code", concept([coding(FHIRCodes.loinc, code.code, code.display)], text: code.display)),
        ("valueQuantity", quantity(value, unit: "mmHg", code: "mm[Hg]")),
      ])
    }
    return [
      ("status", .string("final")), ("category", category("vital-signs", "Vital Signs")),
      (
        "code",
        concept(
          [coding(FHIRCodes.loinc, FHIRCodes.bloodPressure.code, FHIRCodes.bloodPressure.display)],
          text: "Blood pressure")
      ),
      ("subject", subject), ("effectiveDateTime", instant(reading.at)),
      (
        "component",
        .array([
          component(FHIRCodes.systolic, reading.value), component(FHIRCodes.diastolic, reading.diastolic ?? 0),
        ])
      ),
    ]
  }

  /// A night: the minutes asleep over the stretch from bedtime to waking (in bed, where no
  /// source staged the night).
  static func sleep(_ night: SleepNight, subject: JSON) -> [(String, JSON)] {
    let minutes = Double((night.asleep ?? night.inBed) + 30) / 60
    return [
      ("status", .string("final")), ("category", category("activity", "Activity")),
      (
        "code",
        concept(
          [coding(FHIRCodes.loinc, FHIRCodes.sleepDuration.code, FHIRCodes.sleepDuration.display)],
          text: night.asleep == nil ? "Time in bed" : "Sleep duration")
      ),
      ("subject", subject),
      ("effectivePeriod", .object([("start", instant(night.bedtime)), ("end", instant(night.wake))])),
      ("valueQuantity", quantity(minutes.rounded(.down), unit: "min", code: "min")),
    ]
  }
}
