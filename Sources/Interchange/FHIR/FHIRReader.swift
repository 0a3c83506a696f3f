import Core
import Foundation
import Records
import Replication
import Storage

/// Turns a bundle's resources, one at a time, into Vital records: which fields each gives, and
/// for a record that is new, the fields the bundle does not carry (left as a new record of that
/// kind has them). What resources refer to comes from the first pass (`FHIRIndex`).
struct FHIRReader {
  typealias Resource = [String: Any]

  struct Record {
    let id: String
    let columns: [String]
    let values: [DatabaseValue]
    var rest: [String: DatabaseValue] = [:]
  }

  let index: FHIRIndex
  let now: Date
  /// The zone a date without a time (`2026-11-20`) starts the day in.
  let calendar: Calendar
  /// The entries read into a record; the others are counted as skipped.
  var consumed = Set<Int>()

  init(index: FHIRIndex, now: Date, calendar: Calendar) {
    self.index = index
    self.now = now
    self.calendar = calendar
    if let patient = index.patientEntry { consumed.insert(patient) }
  }

  /// The record a resource is, if it is one Vital keeps.
  mutating func record(_ url: String?, _ r: Resource, _ entry: Int) throws -> (Dataset, Record)? {
    switch r["resourceType"] as? String {
    case "Procedure": return try donation(url, r, entry).map { (.donation, $0) }
    case "Observation":
      if let result = try labResult(url, r, entry) { return (.labResult, result) }
      return try period(url, r, entry).map { (.period, $0) }
    case "MedicationStatement": return try medication(r, entry).map { (.medication, $0) }
    case "MedicationAdministration": return try dose(r, entry).map { (.dose, $0) }
    default: return nil
    }
  }

  /// The Vital id a resource carries, for records of `kind`.
  static func vitalID(_ r: Resource, _ kind: String) -> String? {
    (r["identifier"] as? [Resource])?.first { $0["system"] as? String == FHIRCodes.identifierSystem(kind) }?["value"]
      as? String
  }

  static func codes(_ concept: Any?) -> [(system: String, code: String)] {
    ((concept as? Resource)?["coding"] as? [Resource] ?? []).compactMap {
      guard let system = $0["system"] as? String, let code = $0["code"] as? String else { return nil }
      return (system, code)
    }
  }

  static func date(_ text: Any?, _ index: Int, _ what: String) throws -> Date {
    guard let text = text as? String, let date = ISO8601.date(from: text) else {
      throw FHIRImportError.entry(index, "\(what) is not an ISO 8601 date and time")
    }
    return date
  }

  static func number(_ quantity: Any?) -> Double? {
    ((quantity as? Resource)?["value"] as? NSNumber)?.doubleValue
  }

  static func profile(_ patient: Resource, _ index: Int) throws -> (columns: [String], values: [DatabaseValue])? {
    var profile = Profile.Stored()
    var given: [PartialKeyPath<Profile.Stored>] = []
    if let gender = patient["gender"] as? String, let sex = Sex(rawValue: gender) {
      profile.sex = sex
      given.append(\.sex)
    }
    if let birth = patient["birthDate"] as? String {
      guard LocalDate(birth) != nil else { throw FHIRImportError.entry(index, "birthDate is not YYYY-MM-DD") }
      profile.birthDate = birth
      given.append(\.birthDate)
    }
    if let name = (patient["name"] as? [Resource])?.first {
      if let family = name["family"] as? String {
        profile.surname = family
        given.append(\.surname)
      }
      if let first = (name["given"] as? [String])?.first {
        profile.name = first
        given.append(\.name)
      }
    }
    let columns = Profile.Stored.shape.selection(of: given)
    return given.isEmpty ? nil : (columns.names, Profile.Stored.shape.values(profile, columns))
  }

  mutating func donation(_ url: String?, _ r: Resource, _ index: Int) throws -> Record? {
    guard
      let kind = Self.codes(r["code"]).first(where: { $0.system == FHIRCodes.donationType })
        .flatMap({ FHIRCodes.donationKind(code: $0.code) })
    else { return nil }
    guard let id = Self.vitalID(r, "donation") ?? url.flatMap(Self.uuid) else {
      throw FHIRImportError.entry(index, "a donation without an id")
    }
    // To the second, as a donation's times are stored (`Donation.shape`).
    let at = Date(
      timeIntervalSince1970: try Self.date(r["performedDateTime"], index, "performedDateTime").timeIntervalSince1970
        .rounded(.down))
    guard at <= now else { throw FHIRImportError.entry(index, "performedDateTime is in the future") }
    let place = ((r["location"] as? Resource)?["display"] as? String) ?? "unknown place"
    let donation = Donation(
      id: id, kind: kind, status: .completed, scheduledAt: nil, completedAt: at, place: place,
      notes: (r["note"] as? [Resource])?.first?["text"] as? String)
    var fields = DonationStore.fields(donation)
    for (key, value) in url.flatMap({ self.index.vitals[$0] }) ?? [:] { fields[key] = value }
    consumed.insert(index)
    consumed.formUnion(url.flatMap { self.index.vitalEntries[$0] } ?? [])
    let columns = Dataset.donation.fields.filter { $0 != Donation.shape.name(of: \.scheduledAt) }
    return Record(id: id, columns: columns, values: columns.map { fields[$0] ?? .null })
  }

  static func uuid(_ url: String) -> String? {
    url.hasPrefix("urn:uuid:") ? String(url.dropFirst(9)) : nil
  }

  mutating func period(_ url: String?, _ r: Resource, _ index: Int) throws -> Record? {
    guard Self.codes(r["code"]).contains(where: { $0 == (FHIRCodes.vital, FHIRCodes.menstrualPeriod.code) })
    else { return nil }
    let span = r["effectivePeriod"] as? Resource
    guard let start = (span?["start"] as? String).flatMap({ LocalDate($0) }) else {
      throw FHIRImportError.entry(index, "a period without a start date")
    }
    let end = (span?["end"] as? String).flatMap { LocalDate($0) }
    guard let id = Self.vitalID(r, "period") ?? url.flatMap(Self.uuid) else {
      throw FHIRImportError.entry(index, "a period without an id")
    }
    consumed.insert(index)
    return Record(
      id: id, columns: ["start", "end"], values: [.text(start.description), end.map(\.description).databaseValue])
  }
}
