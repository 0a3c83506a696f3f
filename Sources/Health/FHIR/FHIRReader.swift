import Core
import Foundation
import Replication
import Storage

/// Turns a bundle's resources into Vital records: which fields each gives, and for a record that
/// is new, the fields the bundle does not carry (left as a new record of that kind has them).
struct FHIRReader {
  typealias Resource = [String: Any]

  struct Record {
    let id: String
    let columns: [String]
    let values: [DatabaseValue]
    var rest: [String: DatabaseValue] = [:]
  }

  let resources: [(url: String?, resource: Resource, index: Int)]
  /// The entries read into a record.
  var consumed = Set<Int>()
  /// Resources read but not imported: daily totals, missed doses, resources of other programs.
  var skipped: Int { resources.count - consumed.count }

  let now: Date

  init(resources: [(url: String?, resource: Resource, index: Int)], now: Date) {
    self.resources = resources
    self.now = now
  }

  func of(_ type: String) -> [(url: String?, resource: Resource, index: Int)] {
    resources.filter { $0.resource["resourceType"] as? String == type }
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

  mutating func profile() throws -> (columns: [String], values: [DatabaseValue])? {
    guard let (_, patient, index) = of("Patient").first else { return nil }
    consumed.insert(index)
    var columns: [String] = []
    var values: [DatabaseValue] = []
    if let gender = patient["gender"] as? String, let sex = Sex(rawValue: gender) {
      columns.append("sex")
      values.append(.text(sex.rawValue))
    }
    if let birth = patient["birthDate"] as? String {
      guard LocalDate(birth) != nil else { throw FHIRImportError.entry(index, "birthDate is not YYYY-MM-DD") }
      columns.append("birth_date")
      values.append(.text(birth))
    }
    if let name = (patient["name"] as? [Resource])?.first {
      if let family = name["family"] as? String {
        columns.append("surname")
        values.append(.text(family))
      }
      if let given = (name["given"] as? [String])?.first {
        columns.append("name")
        values.append(.text(given))
      }
    }
    return columns.isEmpty ? nil : (columns, values)
  }

  /// Donations, periods, medications and doses, in the order a device applies them.
  mutating func records() throws -> [(Dataset, [Record])] {
    let medications = try self.medications()
    var out: [(Dataset, [Record])] = [
      (.donation, try donations()), (.period, try periods()), (.medication, medications.records),
      (.dose, try doses(names: medications.names)),
    ]
    out.removeAll { $0.1.isEmpty }
    return out
  }

  mutating func donations() throws -> [Record] {
    var vitals: [String: [String: DatabaseValue]] = [:]
    var vitalEntries: [String: [Int]] = [:]
    for (_, r, index) in of("Observation") {
      guard let part = ((r["partOf"] as? [Resource])?.first?["reference"] as? String) else { continue }
      let codes = Self.codes(r["code"]).filter { $0.system == FHIRCodes.loinc }.map(\.code)
      var found: [String: DatabaseValue] = [:]
      if codes.contains(FHIRCodes.haemoglobin.code), let v = Self.number(r["valueQuantity"]) {
        found["hb_g_dl"] = .real(v)
      } else if codes.contains(FHIRCodes.ferritin.code), let v = Self.number(r["valueQuantity"]) {
        found["ferritin_ng_ml"] = .real(v)
      } else if codes.contains(FHIRCodes.heartRate.code), let v = Self.number(r["valueQuantity"]) {
        found["pulse_bpm"] = .integer(Int64(v.rounded()))
      } else if codes.contains(FHIRCodes.bloodPressure.code) {
        for component in r["component"] as? [Resource] ?? [] {
          let code = Self.codes(component["code"]).first?.code
          guard let v = Self.number(component["valueQuantity"]) else { continue }
          if code == FHIRCodes.systolic.code { found["bp_systolic"] = .integer(Int64(v.rounded())) }
          if code == FHIRCodes.diastolic.code { found["bp_diastolic"] = .integer(Int64(v.rounded())) }
        }
      }
      if !found.isEmpty {
        vitals[part, default: [:]].merge(found) { $1 }
        vitalEntries[part, default: []].append(index)
      }
    }
    var records: [Record] = []
    for (url, r, index) in of("Procedure") {
      guard
        let kind = Self.codes(r["code"]).first(where: { $0.system == FHIRCodes.donationType })
          .flatMap({ FHIRCodes.donationKind(code: $0.code) })
      else { continue }
      guard let id = Self.vitalID(r, "donation") ?? url.flatMap(Self.uuid) else {
        throw FHIRImportError.entry(index, "a donation without an id")
      }
      let at = DonationStore.seconds(try Self.date(r["performedDateTime"], index, "performedDateTime"))!
      guard at <= now else { throw FHIRImportError.entry(index, "performedDateTime is in the future") }
      let place = ((r["location"] as? Resource)?["display"] as? String) ?? "unknown place"
      let notes = ((r["note"] as? [Resource])?.first?["text"] as? String).map(DatabaseValue.text) ?? .null
      var fields: [String: DatabaseValue] = [
        "kind": .text(kind.rawValue), "status": .text(DonationStatus.completed.rawValue),
        "completed_at": at.databaseValue, "place": .text(place), "notes": notes,
      ]
      for (key, value) in url.flatMap({ vitals[$0] }) ?? [:] { fields[key] = value }
      consumed.insert(index)
      consumed.formUnion(url.flatMap { vitalEntries[$0] } ?? [])
      let columns = DonationStore.valueOrder.filter { $0 != "scheduled_at" }
      records.append(Record(id: id, columns: columns, values: columns.map { fields[$0] ?? .null }))
    }
    return records
  }

  static func uuid(_ url: String) -> String? {
    url.hasPrefix("urn:uuid:") ? String(url.dropFirst(9)) : nil
  }

  mutating func periods() throws -> [Record] {
    var records: [Record] = []
    for (url, r, index) in of("Observation") {
      guard Self.codes(r["code"]).contains(where: { $0 == (FHIRCodes.vital, FHIRCodes.menstrualPeriod.code) })
      else { continue }
      let span = r["effectivePeriod"] as? Resource
      guard let start = (span?["start"] as? String).flatMap({ LocalDate($0) }) else {
        throw FHIRImportError.entry(index, "a period without a start date")
      }
      let end = (span?["end"] as? String).flatMap { LocalDate($0) }
      guard let id = Self.vitalID(r, "period") ?? url.flatMap(Self.uuid) else {
        throw FHIRImportError.entry(index, "a period without an id")
      }
      consumed.insert(index)
      records.append(
        Record(
          id: id, columns: ["start", "end"], values: [.text(start.description), end.map(\.description).databaseValue]))
    }
    return records
  }
}
