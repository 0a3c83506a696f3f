import Core
import Foundation
import Records
import Storage

/// What the first pass over a bundle notes for the second: the patient's details, the
/// measurements that are part of each donation, and the medications statements name. Small:
/// a few values per donation and medication, none per dose.
struct FHIRIndex {
  typealias Resource = [String: Any]

  var profile: (columns: [String], values: [DatabaseValue])?
  var patientEntry: Int?
  /// Measurements by the donation (`partOf`) they belong to, and their entries.
  var vitals: [String: [String: DatabaseValue]] = [:]
  var vitalEntries: [String: [Int]] = [:]
  /// Medications by `fullUrl`, and those a statement with a Vital id names.
  var medications: [String: (name: String, entry: Int)] = [:]
  var stated = Set<String>()

  mutating func note(_ url: String?, _ r: Resource, _ index: Int) throws {
    switch r["resourceType"] as? String {
    case "Patient" where patientEntry == nil:
      patientEntry = index
      profile = try FHIRReader.profile(r, index)
    case "Observation":
      guard let part = ((r["partOf"] as? [Resource])?.first?["reference"] as? String) else { return }
      let found = try Self.measurements(r, index)
      if !found.isEmpty {
        vitals[part, default: [:]].merge(found) { $1 }
        vitalEntries[part, default: []].append(index)
      }
    case "Medication":
      guard let url, let name = (r["code"] as? Resource)?["text"] as? String else { return }
      medications[url] = (name, index)
    case "MedicationStatement":
      guard FHIRReader.vitalID(r, "medication") != nil,
        let url = (r["medicationReference"] as? Resource)?["reference"] as? String
      else { return }
      stated.insert(url)
    default: return
    }
  }

  /// The donation measurements an observation gives, in Vital's units. A measurement whose
  /// value is no number, or in a unit Vital does not convert, refuses the bundle: imported as it
  /// stands it would be a wrong figure (13.5 mmol/L is not 13.5 g/dL).
  static func measurements(_ r: Resource, _ index: Int) throws -> [String: DatabaseValue] {
    let codes = FHIRReader.codes(r["code"]).filter { $0.system == FHIRCodes.loinc }.map(\.code)
    func value(_ quantity: Any?, _ what: String, units: [String: Double]) throws -> Double {
      let quantity = quantity as? Resource
      guard let number = FHIRReader.number(quantity) else {
        throw FHIRImportError.entry(index, "the \(what) has no number in valueQuantity.value")
      }
      let unit = (quantity?["code"] as? String) ?? (quantity?["unit"] as? String)
      guard let unit else { return number }
      guard let factor = units[unit] else {
        throw FHIRImportError.entry(
          index, "the \(what) is in '\(unit.prefix(20))'; Vital reads \(units.keys.sorted().joined(separator: ", "))")
      }
      return number * factor
    }
    var found: [String: DatabaseValue] = [:]
    if codes.contains(FHIRCodes.haemoglobin.code) {
      let grams = try value(
        r["valueQuantity"], "haemoglobin",
        units: ["g/dL": 1, "g/L": 0.1, "mmol/L": DonationVitals.gramsPerDecilitrePerMillimole])
      // Converted figures to the tenth, as services print them; g/dL as they came.
      let unit = (r["valueQuantity"] as? Resource).flatMap { ($0["code"] ?? $0["unit"]) as? String }
      found[Donation.shape.name(of: \.vitals.haemoglobin)] = .real(
        unit == nil || unit == "g/dL" ? grams : (grams * 10).rounded() / 10)
    } else if codes.contains(FHIRCodes.ferritin.code) {
      found[Donation.shape.name(of: \.vitals.ferritin)] = .real(
        try value(r["valueQuantity"], "ferritin", units: ["ng/mL": 1, "ug/L": 1, "µg/L": 1]))
    } else if codes.contains(FHIRCodes.heartRate.code) {
      let v = try value(r["valueQuantity"], "pulse", units: ["/min": 1, "beats/minute": 1, "{beats}/min": 1])
      found[Donation.shape.name(of: \.vitals.pulse)] = .integer(Int64(v.rounded().saturatingInt))
    } else if codes.contains(FHIRCodes.bloodPressure.code) {
      for component in r["component"] as? [Resource] ?? [] {
        let code = FHIRReader.codes(component["code"]).first?.code
        let name =
          code == FHIRCodes.systolic.code
          ? Donation.shape.name(of: \.vitals.systolic)
          : code == FHIRCodes.diastolic.code ? Donation.shape.name(of: \.vitals.diastolic) : nil
        guard let name else { continue }
        let v = try value(component["valueQuantity"], "blood pressure", units: ["mm[Hg]": 1, "mmHg": 1])
        found[name] = .integer(Int64(v.rounded().saturatingInt))
      }
    }
    return found
  }
}
