import Core
import Cryptography
import Foundation
import Records
import Storage

/// A FHIR R4 `Bundle` of type `collection` (docs/fhir.md): the patient, donations as procedures
/// with their measurements, daily activity and vital signs, medications and each dose, and
/// periods. Every resource's `fullUrl` is a `urn:uuid:` made from its record's id, so the same
/// records always give the same bundle and references resolve inside it.
public enum FHIRBundle {
  public struct Options: Sendable {
    /// The email as the patient's contact; off by default (a bundle goes to other people).
    public var withContact = false
    public init(withContact: Bool = false) { self.withContact = withContact }
  }

  public static func make(_ records: FHIRRecords, options: Options = .init()) -> JSON {
    var entries: [JSON] = []
    func add(_ uuid: String, _ resource: [(String, JSON)]) {
      entries.append(.object([("fullUrl", .string("urn:uuid:\(uuid)")), ("resource", .object(resource))]))
    }
    let patient = uuid("profile", records.profileID)
    add(patient, self.patient(records, id: patient, options: options))
    let subject = reference(patient)

    for donation in records.donations {
      let procedure = uuid("donation", donation.id)
      add(procedure, self.procedure(donation, id: procedure, subject: subject))
      for (key, resource) in vitals(donation, subject: subject, procedure: reference(procedure)) {
        let id = uuid("donation-vital", "\(donation.id)/\(key)")
        add(id, [("resourceType", .string("Observation")), ("id", .string(id))] + resource)
      }
    }
    for day in records.days {
      for (key, resource) in daily(day, subject: subject, calendar: records.calendar) {
        let id = uuid("daily", "\(day.day)/\(key)")
        add(id, [("resourceType", .string("Observation")), ("id", .string(id))] + resource)
      }
    }
    for reading in records.bloodPressures where reading.diastolic != nil {
      let id = uuid("blood-pressure", "\(Int64(reading.at.timeIntervalSince1970))/\(reading.source)")
      add(
        id, [("resourceType", .string("Observation")), ("id", .string(id))] + bloodPressure(reading, subject: subject))
    }
    for night in records.nights {
      let id = uuid("sleep", night.day.description)
      add(id, [("resourceType", .string("Observation")), ("id", .string(id))] + sleep(night, subject: subject))
    }
    for r in records.labs {
      // A result of a test a newer Vital knows is left out: without the catalogue's entry
      // there is no code or unit to give it.
      guard let test = LabCatalogue.shipped.test(r.test) else { continue }
      let id = uuid("lab-result", r.id)
      add(
        id,
        [("resourceType", .string("Observation")), ("id", .string(id))]
          + labResult(r, test: test, sex: records.profile.sex, subject: subject, calendar: records.calendar))
    }
    var medicationIDs: [String: String] = [:]
    for m in records.medications {
      let medication = uuid("medication", m.id)
      medicationIDs[m.id] = medication
      add(medication, self.medication(m, id: medication))
      let statement = uuid("medication-statement", m.id)
      add(statement, self.statement(m, id: statement, medication: reference(medication), subject: subject))
    }
    for dose in records.doses {
      let key = "\(dose.medicationID)@\(Int64(dose.scheduledAt.timeIntervalSince1970))"
      let id = uuid("dose", key)
      let medication: JSON =
        medicationIDs[dose.medicationID].map { .object([("medicationReference", reference($0))]) }
        ?? .object([("medicationCodeableConcept", .object([("text", .string(dose.medication))]))])
      add(id, administration(dose, id: id, key: key, medication: medication, subject: subject))
    }
    for period in records.periods {
      let id = uuid("period", period.id)
      add(id, self.period(period, id: id, subject: subject))
    }
    return .object([
      ("resourceType", .string("Bundle")), ("id", .string(uuid("bundle", records.profileID))),
      ("type", .string("collection")), ("entry", .array(entries)),
    ])
  }

  // MARK: Identity

  /// A stable UUID for a record: its id when that is a UUID already (donations, periods,
  /// medications), else the first 16 bytes of SHA-256("vital:KIND:ID") marked as a version 8
  /// (custom) UUID of RFC 9562.
  public static func uuid(_ kind: String, _ id: String) -> String {
    if ["donation", "period", "medication", "lab-result"].contains(kind), let canonical = UUID(uuidString: id) {
      return canonical.uuidString.lowercased()
    }
    return Crypto.nameUUID("vital:\(kind):\(id)")
  }

  /// Vital's record id, so that an import of the bundle finds the record again.
  static func identifier(_ kind: String, _ id: String) -> JSON {
    .array([.object([("system", .string(FHIRCodes.identifierSystem(kind))), ("value", .string(id))])])
  }

  static func reference(_ uuid: String) -> JSON { .object([("reference", .string("urn:uuid:\(uuid)"))]) }

  static func instant(_ date: Date) -> JSON { .string(ISO8601.string(from: date)) }

  static func coding(_ system: String, _ code: String, _ display: String) -> JSON {
    .object([("system", .string(system)), ("code", .string(code)), ("display", .string(display))])
  }

  static func concept(_ codings: [JSON], text: String) -> JSON {
    .object([("coding", .array(codings)), ("text", .string(text))])
  }

  static func quantity(_ value: Double, unit: String, code: String) -> JSON {
    .object([
      ("value", .double(value)), ("unit", .string(unit)), ("system", .string(FHIRCodes.ucum)), ("code", .string(code)),
    ])
  }

  static func category(_ code: String, _ display: String) -> JSON {
    .array([.object([("coding", .array([coding(FHIRCodes.observationCategory, code, display)]))])])
  }
}

extension FHIRBundle {
  /// How many resources of each type a bundle holds, in the order they first appear.
  public static func counts(_ bundle: JSON) -> RecordArchive.Counts {
    var counts = RecordArchive.Counts()
    guard case .object(let members) = bundle, case .array(let entries)? = members.first(where: { $0.0 == "entry" })?.1
    else { return counts }
    for case .object(let entry) in entries {
      guard case .object(let resource)? = entry.first(where: { $0.0 == "resource" })?.1,
        case .string(let type)? = resource.first?.1
      else { continue }
      if let i = counts.datasets.firstIndex(where: { $0.name == type }) {
        counts.datasets[i].records += 1
      } else {
        counts.datasets.append((type, 1))
      }
    }
    return counts
  }
}
