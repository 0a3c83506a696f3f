import Core
import Foundation
import Replication
import Storage

/// Correcting a medication's schedule, and a dose recorded wrongly.
extension MedicationStore {
  /// The fields an edit may change; nil leaves one as it is, `.some(nil)` clears an optional one.
  public struct Changes: Sendable {
    public var name: String?
    public var times: [String]?
    /// `.some(nil)`: every day.
    public var days: [String]??
    public var dose: String??
    public var refillAt: Int??

    public init(
      name: String? = nil, times: [String]? = nil, days: [String]?? = nil, dose: String?? = nil, refillAt: Int?? = nil
    ) {
      self.name = name
      self.times = times
      self.days = days
      self.dose = dose
      self.refillAt = refillAt
    }
  }

  /// Changes the given fields, checked as `add` checks them. Doses already recorded keep their
  /// times; a changed schedule counts from now on (`since` moves), so doses of the old schedule
  /// do not turn into misses of the new one.
  public func edit(_ key: String, _ changes: Changes) throws -> Medication {
    try db.transaction { _ in
      let old = try find(key)
      var m = old
      if let name = changes.name {
        m.name = try Self.checkedName(name)
        if m.name.lowercased() != old.name.lowercased(),
          try list().contains(where: { $0.name.lowercased() == m.name.lowercased() })
        {
          throw MedicationError.duplicateName(m.name)
        }
      }
      if let times = changes.times { m.times = try Self.parseTimes(times) }
      if let days = changes.days { m.days = try days.map(Self.parseDays) }
      if let dose = changes.dose { m.dose = dose?.trimmingCharacters(in: .whitespaces).nilIfEmpty }
      if let refillAt = changes.refillAt {
        if let n = refillAt, !(0...100_000).contains(n) { throw MedicationError.badStock }
        m.refillAt = refillAt
      }
      if m.times != old.times || m.days != old.days { m.since = now }
      let before = Self.fields(old)
      let changed = Self.fields(m).filter { before[$0.key] != $0.value }
      if !changed.isEmpty { try replica.write(.medication, id: m.id, changed) }
      return m
    }
  }

  static func checkedName(_ name: String) throws -> String {
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw MedicationError.emptyName
    }
    return name
  }

  static func parseTimes(_ times: [String]) throws -> [TimeOfDay] {
    guard !times.isEmpty else { throw MedicationError.noTimes }
    var parsed: [TimeOfDay] = []
    for text in times.flatMap({ $0.split(separator: ",").map(String.init) }) {
      guard let time = TimeOfDay(text.trimmingCharacters(in: .whitespaces)) else {
        throw MedicationError.badTime(text)
      }
      if !parsed.contains(time) { parsed.append(time) }
    }
    return parsed.sorted()
  }

  static func parseDays(_ days: [String]) throws -> [Weekday] {
    try Array(
      Set(
        days.flatMap { $0.split(separator: ",") }.map { text in
          guard let day = Weekday(name: text.trimmingCharacters(in: .whitespaces)) else {
            throw MedicationError.badDay(String(text))
          }
          return day
        })
    ).sorted()
  }

  // MARK: Doses

  /// A recorded dose by `NAME@YYYY-MM-DDTHH:MM` (its medication and scheduled local time), or
  /// by its id.
  public func findDose(_ key: String) throws -> Dose {
    var id = key
    if let at = key.lastIndex(of: "@"), let medication = try? find(String(key[..<at])) {
      let time = String(key[key.index(after: at)...]).replacingOccurrences(of: " ", with: "T")
      let f = ISO8601.fields(from: time)
      guard let f, f.offset == nil,
        let scheduled = calendar.date(
          from: DateComponents(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute))
      else { throw MedicationError.badDoseKey(key) }
      id = Dose.id(medication: medication.id, scheduledAt: scheduled)
    }
    guard
      let dose = try db.queryFirst(
        "SELECT \(Self.doseColumns) FROM dose WHERE account_id = ? AND id = ?", account.id, id, row: Self.dose)
    else { throw MedicationError.noDose(key) }
    return dose
  }

  /// Changes when a recorded dose was taken or skipped, or which of the two it was. The time
  /// stays within 12 hours of the dose's scheduled time (else it is another dose), and never
  /// in the future.
  public func editDose(_ key: String, at: Date?, status: DoseStatus?) throws -> Dose {
    let old = try findDose(key)
    if let status, status != .taken && status != .skipped { throw MedicationError.badDoseStatus }
    var fields: [String: DatabaseValue] = [:]
    if let at, at != old.at {
      guard at <= now else { throw MedicationError.inTheFuture }
      guard abs(at.timeIntervalSince(old.scheduledAt)) <= Self.window else {
        throw MedicationError.tooFarFromDose(ISO8601.string(from: old.scheduledAt, timeZone: calendar.timeZone))
      }
      fields["at"] = at.databaseValue
    }
    if let status, status != old.status { fields["status"] = .text(status.rawValue) }
    let id = Dose.id(medication: old.medicationID, scheduledAt: old.scheduledAt)
    if !fields.isEmpty { try replica.write(.dose, id: id, fields) }
    return Dose(
      medicationID: old.medicationID, medication: old.medication, dose: old.dose, scheduledAt: old.scheduledAt,
      status: status ?? old.status, at: at ?? old.at)
  }

  /// Forgets a recorded take or skip: the dose is open again (and missed once its time is past).
  @discardableResult
  public func deleteDose(_ key: String) throws -> Dose {
    let dose = try findDose(key)
    try replica.delete(.dose, id: Dose.id(medication: dose.medicationID, scheduledAt: dose.scheduledAt))
    return dose
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
