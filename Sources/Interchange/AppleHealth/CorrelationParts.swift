import Foundation
import Records

/// A blood pressure reading as the export gives it: a Correlation around a systolic and a
/// diastolic Record. It is kept as one sample of the correlation's type whose value is
/// `systolic/diastolic` in mmHg (`BloodPressure`), so that the two halves never part; the
/// export lists the halves at the top level too, and those are kept as they are.
struct CorrelationParts {
  var type: String?
  var source: String?
  var start: Date?
  var end: Date?
  var systolic: Double?
  var diastolic: Double?

  init(_ attributes: XMLStream.Attributes) {
    let values = attributes.values
    type = values["type"]
    source = values["sourceName"]
    start = values["startDate"].flatMap(HealthDate.parse)
    end = values["endDate"].flatMap(HealthDate.parse)
  }

  var isBloodPressure: Bool { type == BloodPressure.correlationType }

  mutating func add(record attributes: XMLStream.Attributes) {
    let values = attributes.values
    guard let value = values["value"].flatMap(Double.init), value.isFinite,
      (values["unit"] ?? "mmHg") == "mmHg"
    else { return }
    switch values["type"] {
    case BloodPressure.systolicType: systolic = value
    case BloodPressure.diastolicType: diastolic = value
    default: break
    }
  }

  /// The reading, when both halves came with their numbers.
  var reading: BloodPressure? { systolic.flatMap { s in diastolic.map { BloodPressure(systolic: s, diastolic: $0) } } }
}
