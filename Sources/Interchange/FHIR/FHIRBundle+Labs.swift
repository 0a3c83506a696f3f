import Core
import Foundation
import Records
import Storage

extension FHIRBundle {
  /// A lab result or a measurement by hand: its LOINC code, the value in the catalogue's UCUM
  /// unit, the range it is read against and where it stands (H, L or N), and the laboratory as
  /// the performer. A laboratory's own range is written as `laboratory`; the catalogue's default
  /// says so in its text, so that reading the bundle back does not take it for the lab's.
  static func labResult(
    _ r: LabResult, test: LabTest, sex: Sex?, subject: JSON, calendar: Calendar
  ) -> [(String, JSON)] {
    // A result from a letter is of a day (kept at its local midnight): written as that date,
    // not as the instant, which a reader in UTC would put on the day before.
    let day = LocalDate(r.at, in: calendar)
    let effective: JSON = day.start(in: calendar) == r.at ? .string(day.description) : instant(r.at)
    var fields: [(String, JSON)] = [
      ("identifier", identifier("lab-result", r.id)), ("status", .string("final")),
      (
        "category",
        test.kind == .lab ? category("laboratory", "Laboratory") : category("vital-signs", "Vital Signs")
      ),
      ("code", concept([coding(FHIRCodes.loinc, test.loinc, test.name)], text: test.name)),
      ("subject", subject), ("effectiveDateTime", effective),
    ]
    let range = r.range(test, sex: sex)
    let rangeText = range?.ownRange == true ? "laboratory" : "\(FHIRCodes.defaultRange): \(test.rangeSourceName)"
    func referenceRange(_ low: Double?, _ high: Double?) -> JSON {
      var members: [(String, JSON)] = []
      if let low { members.append(("low", quantity(low, unit: test.displayUnit, code: test.unit))) }
      if let high { members.append(("high", quantity(high, unit: test.displayUnit, code: test.unit))) }
      return .array([.object(members + [("text", .string(rangeText))])])
    }
    if let systolic = test.loincSystolic, let diastolic = test.loincDiastolic {
      let other = r.secondRange(test, sex: sex)
      func component(_ code: String, _ name: String, _ value: Double, _ low: Double?, _ high: Double?) -> JSON {
        var members: [(String, JSON)] = [
          ("code", concept([coding(FHIRCodes.loinc, code, name)], text: name)),
          ("valueQuantity", quantity(value, unit: test.displayUnit, code: test.unit)),
        ]
        if low != nil || high != nil { members.append(("referenceRange", referenceRange(low, high))) }
        return .object(members)
      }
      fields.append(
        (
          "component",
          .array([
            component(systolic, "Systolic blood pressure", r.value, range?.low, range?.high),
            component(diastolic, "Diastolic blood pressure", r.second ?? 0, other?.low, other?.high),
          ])
        ))
    } else {
      fields.append(("valueQuantity", quantity(r.value, unit: test.displayUnit, code: test.unit)))
      if let range, range.low != nil || range.high != nil {
        fields.append(("referenceRange", referenceRange(range.low, range.high)))
      }
    }
    if let flag = r.flag(test, sex: sex) {
      let display = ["H": "High", "L": "Low", "N": "Normal"][flag.rawValue]!
      fields.append(
        ("interpretation", .array([concept([coding(FHIRCodes.interpretation, flag.rawValue, display)], text: display)]))
      )
    }
    if let lab = r.lab { fields.append(("performer", .array([.object([("display", .string(lab))])]))) }
    if let note = r.note { fields.append(("note", .array([.object([("text", .string(note))])]))) }
    return fields
  }
}
