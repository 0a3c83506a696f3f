import Core
import Foundation
import Records
import Storage

extension FHIRBundle {
  static func medication(_ m: Medication, id: String) -> [(String, JSON)] {
    [
      ("resourceType", .string("Medication")), ("id", .string(id)), ("identifier", identifier("medication", m.id)),
      ("code", .object([("text", .string(m.name))])),
    ]
  }

  /// The medication as a doctor reads a list: since when, which dose, when in the day.
  static func statement(_ m: Medication, id: String, medication: JSON, subject: JSON) -> [(String, JSON)] {
    let since = m.plans.first?.since ?? m.since
    var dosage: [(String, JSON)] = [("text", .string(dosageText(m)))]
    if m.steps == nil, let quantity = m.dose.flatMap(doseQuantity) {
      dosage.append(("doseAndRate", .array([.object([("doseQuantity", quantity)])])))
    }
    if m.asNeeded {
      dosage.append(("asNeededBoolean", .bool(true)))
    } else if !m.times.isEmpty {
      var repeats: [(String, JSON)] = [
        ("frequency", .int(m.times.count)), ("period", .int(1)), ("periodUnit", .string("d")),
      ]
      if let days = m.days { repeats.append(("dayOfWeek", .array(days.map { .string($0.name) }))) }
      repeats.append(("timeOfDay", .array(m.times.map { .string("\($0):00") })))
      dosage.append(("timing", .object([("repeat", .object(repeats))])))
    }
    return [
      ("resourceType", .string("MedicationStatement")), ("id", .string(id)),
      ("identifier", identifier("medication", m.id)), ("status", .string("active")),
      ("medicationReference", medication), ("subject", subject),
      ("effectivePeriod", .object([("start", instant(since))])), ("dosage", .array([.object(dosage)])),
    ]
  }

  /// A dose such as `5 mg` or `1 tablet` as a quantity; UCUM codes for the units UCUM has.
  static func doseQuantity(_ dose: String) -> JSON? {
    let parts = dose.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, let value = Double(parts[0]), value.isFinite, value > 0 else { return nil }
    let unit = String(parts[1])
    let ucum = ["mg": "mg", "g": "g", "µg": "ug", "mcg": "ug", "ml": "mL", "mL": "mL", "IU": "[iU]", "I.E.": "[iU]"]
    var quantity: [(String, JSON)] = [("value", .double(value)), ("unit", .string(unit))]
    if let code = ucum[unit] { quantity += [("system", .string(FHIRCodes.ucum)), ("code", .string(code))] }
    return .object(quantity)
  }

  static func dosageText(_ m: Medication) -> String {
    var parts: [String] = []
    if let steps = m.steps, !steps.isEmpty {
      parts.append("tapering " + steps.map { "\($0.dose) for \($0.days) d" }.joined(separator: ", then "))
    } else if let dose = m.dose {
      parts.append(dose)
    }
    if m.asNeeded {
      parts.append("as needed")
      if let max = m.maxPerDay { parts.append("at most \(max) a day") }
      if let gap = m.minInterval { parts.append("at least \(Int(gap / 60)) min apart") }
    } else {
      parts.append("at " + m.times.map(\.description).joined(separator: ", "))
      if let days = m.days { parts.append("on " + days.map(\.name).joined(separator: ", ")) }
    }
    return parts.joined(separator: " ")
  }

  /// One dose: given, or not given with the reason (skipped, or missed: no answer by its time).
  static func administration(_ d: Dose, id: String, key: String, medication: JSON, subject: JSON) -> [(String, JSON)] {
    let given = d.status == .taken
    var resource: [(String, JSON)] = [
      ("resourceType", .string("MedicationAdministration")), ("id", .string(id)),
      ("status", .string(given ? "completed" : "not-done")),
    ]
    if d.status == .taken || d.status == .skipped { resource.insert(("identifier", identifier("dose", key)), at: 2) }
    if !given {
      resource.append(("statusReason", .array([.object([("text", .string(d.status.rawValue))])])))
    }
    guard case .object(let med) = medication else { return resource }
    resource += med
    resource.append(("subject", subject))
    resource.append(("effectiveDateTime", instant(d.at ?? d.scheduledAt)))
    var dosage: [(String, JSON)] = []
    if let dose = d.dose { dosage.append(("text", .string(dose))) }
    if !dosage.isEmpty { resource.append(("dosage", .object(dosage))) }
    resource.append(
      ("note", .array([.object([("text", .string("scheduled \(ISO8601.string(from: d.scheduledAt))"))])])))
    return resource
  }

  /// A period: the days of flow, as an observation over them.
  static func period(_ p: Period, id: String, subject: JSON) -> [(String, JSON)] {
    var span: [(String, JSON)] = [("start", .string(p.start.description))]
    if let end = p.end { span.append(("end", .string(end.description))) }
    return [
      ("resourceType", .string("Observation")), ("id", .string(id)), ("identifier", identifier("period", p.id)),
      ("status", .string("final")),
      (
        "code",
        concept(
          [coding(FHIRCodes.vital, FHIRCodes.menstrualPeriod.code, FHIRCodes.menstrualPeriod.display)],
          text: "Menstrual period")
      ),
      ("subject", subject), ("effectivePeriod", .object(span)),
      ("valueCodeableConcept", .object([("text", .string(p.end == nil ? "flow, ongoing" : "flow"))])),
    ]
  }
}
