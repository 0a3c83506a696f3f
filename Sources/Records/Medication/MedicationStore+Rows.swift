import Core
import Foundation
import Replication
import Storage

/// How medications and doses are stored: one row each, every field synced on its own.
extension MedicationStore {
  static func medication(_ row: Row) throws -> Medication {
    try Medication.shape.record(row)
  }

  package static func fields(_ m: Medication) -> [String: DatabaseValue] {
    Medication.shape.fields(m, Medication.synced)
  }

  /// Times and weekdays as the row and the stored plans both keep them: `08:00,20:00`, `mon,thu`.
  static func text(_ times: [TimeOfDay]) -> String { times.map(\.description).joined(separator: ",") }
  static func text(_ days: [Weekday]) -> String { days.map(\.name).joined(separator: ",") }
  static func times(_ text: String) -> [TimeOfDay] { text.split(separator: ",").compactMap { TimeOfDay(String($0)) } }
  static func days(_ text: String) -> [Weekday] { text.split(separator: ",").compactMap { Weekday(name: String($0)) } }

  static func instants(_ text: String) -> [Date] {
    text.split(separator: "/").compactMap { ISO8601.date(from: String($0)) }
  }

  /// Pauses as `from/until;...` and a snooze as `scheduled/until`, ISO instants.
  static func text(_ pauses: [Medication.Pause]) -> String {
    pauses.map { "\(ISO8601.string(from: $0.from))/\(ISO8601.string(from: $0.until))" }.joined(separator: ";")
  }

  static func text(_ snooze: Medication.Snooze) -> String {
    "\(ISO8601.string(from: snooze.scheduledAt))/\(ISO8601.string(from: snooze.until))"
  }

  static func snooze(_ text: String) -> Medication.Snooze? {
    let parts = instants(text)
    return parts.count == 2 ? Medication.Snooze(scheduledAt: parts[0], until: parts[1]) : nil
  }

  static func decodePauses(_ text: String) -> [Medication.Pause] {
    text.split(separator: ";").compactMap { part in
      let ends = instants(String(part))
      return ends.count == 2 ? Medication.Pause(from: ends[0], until: ends[1]) : nil
    }
  }

  /// A plan as stored in `past`: the fields as the medication row has them.
  private struct StoredPlan: Codable {
    var since: String
    var until: String?
    var times: String
    var days: String?
    var dose: String?
    var steps: String?
    var steps_start: String?
    var then_keep: Bool?
    var zone: String?
  }

  static func encode(_ plans: [MedicationPlan]) -> String {
    let stored = plans.map { p in
      StoredPlan(
        since: ISO8601.string(from: p.since), until: p.until.map { ISO8601.string(from: $0) },
        times: Self.text(p.times), days: p.days.map(Self.text),
        dose: p.dose, steps: p.steps.map(TaperStep.text), steps_start: p.stepsStart?.description,
        then_keep: p.thenKeep ? true : nil, zone: p.zone)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(stored)) ?? Data("[]".utf8), as: UTF8.self)
  }

  /// Plans another device wrote; one it cannot read is left out rather than failing every read.
  static func decodePlans(_ text: String) -> [MedicationPlan] {
    guard let stored = try? JSONDecoder().decode([StoredPlan].self, from: Data(text.utf8)) else { return [] }
    return stored.compactMap { s in
      guard let since = ISO8601.date(from: s.since) else { return nil }
      return MedicationPlan(
        times: Self.times(s.times), days: s.days.map(Self.days), dose: s.dose,
        steps: s.steps.flatMap { try? TaperStep.parse($0) }, stepsStart: s.steps_start.flatMap(LocalDate.init),
        thenKeep: s.then_keep ?? false, zone: s.zone, since: since, until: s.until.flatMap(ISO8601.date(from:)))
    }
  }

  static let doseColumns = (Self.doses as Table).list(Dose.shape.columns.map(\.name))

  static func dose(_ row: Row) throws -> Dose {
    try Dose.shape.record(row)
  }

  func doseFields(_ d: Dose) -> [String: DatabaseValue] {
    Dose.shape.fields(d, Dose.synced).merging([Dose.recorded: now.databaseValue]) { a, _ in a }
  }
}
