import Core
import Foundation
import Records
import Replication
import Storage

extension FHIRReader {
  /// A lab result: an Observation Vital wrote as one (its `lab-result` identifier), or one of
  /// a laboratory's (category `laboratory`, not part of a donation) whose LOINC code the
  /// catalogue knows. Its value is read in whichever unit of the test it comes in; a unit the
  /// test does not take refuses the bundle, as a wrong figure would be worse than none.
  mutating func labResult(_ url: String?, _ r: Resource, _ index: Int) throws -> Record? {
    let ours = Self.vitalID(r, "lab-result")
    let laboratory = ((r["category"] as? [Resource]) ?? []).contains {
      Self.codes($0).contains { $0.system == FHIRCodes.observationCategory && $0.code == "laboratory" }
    }
    guard ours != nil || (laboratory && r["partOf"] == nil) else { return nil }
    let catalogue = LabCatalogue.shipped
    guard
      let test = Self.codes(r["code"]).lazy.filter({ $0.system == FHIRCodes.loinc })
        .compactMap({ catalogue.test(loinc: $0.code) }).first
    else {
      if ours != nil { throw FHIRImportError.entry(index, "a lab result whose LOINC code Vital does not know") }
      return nil
    }
    guard let id = ours ?? url.flatMap(Self.uuid) ?? (r["id"] as? String).map({ "fhir-\($0.prefix(60))" }) else {
      throw FHIRImportError.entry(index, "a lab result without an id")
    }
    func value(_ quantity: Any?) throws -> Double {
      let quantity = quantity as? Resource
      guard let number = Self.number(quantity), number.isFinite else {
        throw FHIRImportError.entry(index, "the \(test.id) result has no number in valueQuantity.value")
      }
      guard let unit = (quantity?["code"] as? String) ?? (quantity?["unit"] as? String) else { return number }
      guard let conversion = catalogue.conversion(unit, of: test) else {
        throw FHIRImportError.entry(
          index,
          "the \(test.id) result is in '\(unit.prefix(20))'; Vital reads \(test.unitNames.joined(separator: ", "))")
      }
      return number * conversion.factor + conversion.offset
    }
    // A date alone is that local day's start, as `labs add --at 2026-11-20` keeps it.
    let effective = r["effectiveDateTime"] as? String
    let at =
      try effective.flatMap { $0.count == 10 ? LocalDate($0)?.start(in: calendar) : nil }
      ?? Self.date(effective, index, "effectiveDateTime")
    var result = LabResult(id: id, test: test.id, value: 0, at: at)
    var rangeHolder = r
    if let systolic = test.loincSystolic, let diastolic = test.loincDiastolic {
      let components = r["component"] as? [Resource] ?? []
      let part = { (code: String) in components.first { Self.codes($0["code"]).contains { $0.code == code } } }
      guard let high = part(systolic), let low = part(diastolic) else {
        throw FHIRImportError.entry(index, "a blood pressure without its systolic and diastolic components")
      }
      result.value = try value(high["valueQuantity"])
      result.second = try value(low["valueQuantity"])
      rangeHolder = high
    } else {
      result.value = try value(r["valueQuantity"])
    }
    // The laboratory's own range; the catalogue's default is the catalogue's to give.
    if let range = (rangeHolder["referenceRange"] as? [Resource])?.first,
      !((range["text"] as? String)?.hasPrefix(FHIRCodes.defaultRange) ?? false)
    {
      result.rangeLow = try range["low"].map(value)
      result.rangeHigh = try range["high"].map(value)
    }
    result.lab = ((r["performer"] as? [Resource])?.first?["display"] as? String).map { String($0.prefix(200)) }
    result.note = (r["note"] as? [Resource])?.first?["text"] as? String
    consumed.insert(index)
    let columns = Dataset.labResult.fields
    return Record(id: id, columns: columns, values: LabResult.shape.values(result, LabResult.synced))
  }
}
