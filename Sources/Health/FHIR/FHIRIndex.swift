import Core
import Foundation
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
      let found = Self.measurements(r)
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

  /// The donation measurements an observation gives.
  static func measurements(_ r: Resource) -> [String: DatabaseValue] {
    let codes = FHIRReader.codes(r["code"]).filter { $0.system == FHIRCodes.loinc }.map(\.code)
    var found: [String: DatabaseValue] = [:]
    if codes.contains(FHIRCodes.haemoglobin.code), let v = FHIRReader.number(r["valueQuantity"]) {
      found["hb_g_dl"] = .real(v)
    } else if codes.contains(FHIRCodes.ferritin.code), let v = FHIRReader.number(r["valueQuantity"]) {
      found["ferritin_ng_ml"] = .real(v)
    } else if codes.contains(FHIRCodes.heartRate.code), let v = FHIRReader.number(r["valueQuantity"]) {
      found["pulse_bpm"] = .integer(Int64(v.rounded().saturatingInt))
    } else if codes.contains(FHIRCodes.bloodPressure.code) {
      for component in r["component"] as? [Resource] ?? [] {
        let code = FHIRReader.codes(component["code"]).first?.code
        guard let v = FHIRReader.number(component["valueQuantity"]) else { continue }
        if code == FHIRCodes.systolic.code { found["bp_systolic"] = .integer(Int64(v.rounded().saturatingInt)) }
        if code == FHIRCodes.diastolic.code { found["bp_diastolic"] = .integer(Int64(v.rounded().saturatingInt)) }
      }
    }
    return found
  }
}
