import Core
import Foundation
import Records
import Storage

extension FHIRBundle {
  static func patient(_ records: FHIRRecords, id: String, options: Options) -> [(String, JSON)] {
    let p = records.profile
    var resource: [(String, JSON)] = [("resourceType", .string("Patient")), ("id", .string(id))]
    if p.name != nil || p.surname != nil {
      var name: [(String, JSON)] = []
      if let surname = p.surname { name.append(("family", .string(surname))) }
      if let given = p.name { name.append(("given", .array([.string(given)]))) }
      resource.append(("name", .array([.object(name)])))
    }
    if options.withContact {
      resource.append(
        ("telecom", .array([.object([("system", .string("email")), ("value", .string(records.email))])])))
    }
    resource.append(("gender", .string(p.sex?.rawValue ?? "unknown")))
    if let birth = p.birthDate { resource.append(("birthDate", .string(birth))) }
    return resource
  }

  static func procedure(_ d: Donation, id: String, subject: JSON) -> [(String, JSON)] {
    let (code, display) = FHIRCodes.donation(d.kind)
    var resource: [(String, JSON)] = [
      ("resourceType", .string("Procedure")), ("id", .string(id)), ("identifier", identifier("donation", d.id)),
      ("status", .string("completed")),
      ("code", concept([coding(FHIRCodes.donationType, code, display)], text: "Blood donation (\(d.kind.label))")),
      ("subject", subject),
    ]
    if let at = d.completedAt { resource.append(("performedDateTime", instant(at))) }
    resource.append(("location", .object([("display", .string(d.place))])))
    if let notes = d.notes, !notes.isEmpty { resource.append(("note", .array([.object([("text", .string(notes))])]))) }
    return resource
  }

  /// The measurements taken at a donation, each part of its procedure, keyed for their ids.
  static func vitals(_ d: Donation, subject: JSON, procedure: JSON) -> [(String, [(String, JSON)])] {
    guard let at = d.completedAt else { return [] }
    let v = d.vitals
    func observation(_ category: JSON, _ code: (code: String, display: String), text: String, _ value: [(String, JSON)])
      -> [(String, JSON)]
    {
      [
        ("status", .string("final")), ("category", category),
        ("code", concept([coding(FHIRCodes.loinc, code.code, code.display)], text: text)), ("subject", subject),
        ("partOf", .array([procedure])), ("effectiveDateTime", instant(at)),
      ] + value
    }
    let lab = category("laboratory", "Laboratory")
    let signs = category("vital-signs", "Vital Signs")
    var out: [(String, [(String, JSON)])] = []
    if let hb = v.haemoglobin {
      out.append(
        (
          "hb",
          observation(
            lab, FHIRCodes.haemoglobin, text: "Haemoglobin",
            [("valueQuantity", quantity(hb, unit: "g/dL", code: "g/dL"))])
        ))
    }
    if let ferritin = v.ferritin {
      out.append(
        (
          "ferritin",
          observation(
            lab, FHIRCodes.ferritin, text: "Ferritin",
            [("valueQuantity", quantity(ferritin, unit: "ng/mL", code: "ng/mL"))])
        ))
    }
    if let sys = v.systolic, let dia = v.diastolic {
      func component(_ code: (code: String, display: String), _ value: Int) -> JSON {
        .object([
          ("code", concept([coding(FHIRCodes.loinc, code.code, code.display)], text: code.display)),
          ("valueQuantity", quantity(Double(value), unit: "mmHg", code: "mm[Hg]")),
        ])
      }
      out.append(
        (
          "bp",
          observation(
            signs, FHIRCodes.bloodPressure, text: "Blood pressure",
            [("component", .array([component(FHIRCodes.systolic, sys), component(FHIRCodes.diastolic, dia)]))])
        ))
    }
    if let pulse = v.pulse {
      out.append(
        (
          "pulse",
          observation(
            signs, FHIRCodes.heartRate, text: "Pulse",
            [("valueQuantity", quantity(Double(pulse), unit: "beats/minute", code: "/min"))])
        ))
    }
    return out
  }

  /// A day's totals and means, over the local day.
  static func daily(_ day: FHIRRecords.DailyTotals, subject: JSON, calendar: Calendar) -> [(String, [(String, JSON)])] {
    let start = day.day.start(in: calendar)
    let end = day.day.adding(days: 1, in: calendar).start(in: calendar)
    let period: JSON = .object([
      ("start", .string(ISO8601.string(from: start, timeZone: calendar.timeZone))),
      ("end", .string(ISO8601.string(from: end, timeZone: calendar.timeZone))),
    ])
    func observation(_ category: JSON, _ code: (code: String, display: String), text: String, _ value: JSON)
      -> [(String, JSON)]
    {
      [
        ("status", .string("final")), ("category", category),
        ("code", concept([coding(FHIRCodes.loinc, code.code, code.display)], text: text)), ("subject", subject),
        ("effectivePeriod", period), ("valueQuantity", value),
      ]
    }
    let activity = category("activity", "Activity")
    let signs = category("vital-signs", "Vital Signs")
    var out: [(String, [(String, JSON)])] = []
    if let steps = day.steps {
      out.append(
        ("steps", observation(activity, FHIRCodes.steps, text: "Steps", quantity(steps, unit: "steps/day", code: "/d")))
      )
    }
    if let metres = day.distanceMetres {
      out.append(
        (
          "distance",
          observation(
            activity, FHIRCodes.distance, text: "Walking and running distance", quantity(metres, unit: "m", code: "m"))
        ))
    }
    if let kg = day.weightKg {
      out.append(
        (
          "weight",
          observation(
            signs, FHIRCodes.bodyWeight, text: "Body weight (mean of the day)", quantity(kg, unit: "kg", code: "kg"))
        ))
    }
    if let rate = day.heartRate {
      out.append(
        (
          "heart-rate",
          observation(
            signs, FHIRCodes.heartRate, text: "Heart rate (mean of the day)",
            quantity(rate, unit: "beats/minute", code: "/min"))
        ))
    }
    for (key, value, code, text, unit, ucum) in [
      (
        "resting-heart-rate", day.restingHeartRate, FHIRCodes.restingHeartRate, "Resting heart rate", "beats/minute",
        "/min"
      ),
      ("hrv", day.heartRateVariability, FHIRCodes.heartRateVariability, "Heart rate variability (SDNN)", "ms", "ms"),
      ("spo2", day.oxygenSaturation, FHIRCodes.oxygenSaturation, "Blood oxygen (mean of the day)", "%", "%"),
      (
        "respiratory-rate", day.respiratoryRate, FHIRCodes.respiratoryRate, "Respiratory rate (mean of the day)",
        "breaths/minute", "/min"
      ),
    ] {
      guard let value else { continue }
      out.append((key, observation(signs, code, text: text, quantity(value, unit: unit, code: ucum))))
    }
    return out
  }
}
