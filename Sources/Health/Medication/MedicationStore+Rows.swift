import Core
import Foundation
import Replication
import Storage

/// How medications and doses are stored: one row each, every field synced on its own.
extension MedicationStore {
  static func medication(_ row: Row) throws -> Medication {
    var m = Medication(
      id: try row.get("id"), name: try row.get("name"), times: Self.times(try row.get("times", as: String.self)),
      days: try row.get("days", as: String?.self).map(Self.days), dose: try row.get("dose"),
      stock: row.valid("stock", in: .medication), stockSetAt: try row.get("stock_set_at"),
      refillAt: row.valid("refill_at", in: .medication),
      since: try row.get("since"))
    m.steps = try row.get("steps", as: String?.self).flatMap { try? TaperStep.parse($0) }
    m.stepsStart = try row.get("steps_start", as: String?.self).flatMap(LocalDate.init)
    m.thenKeep = try row.get("then_keep", as: Int?.self) == 1
    m.zone = try row.get("zone")
    m.past = try row.get("past", as: String?.self).map(Self.decodePlans) ?? []
    m.asNeeded = try row.get("as_needed", as: Int?.self) == 1
    m.minInterval = (row.valid("min_interval", in: .medication) as Int?).map(TimeInterval.init)
    m.maxPerDay = row.valid("max_per_day", in: .medication)
    m.minGap = (row.valid("min_gap", in: .medication) as Int?).map(TimeInterval.init)
    m.expires = try row.get("expires", as: String?.self).flatMap(LocalDate.init)
    m.pauses = try row.get("pauses", as: String?.self).map(Self.decodePauses) ?? []
    m.snooze = try row.get("snooze", as: String?.self).flatMap { text in
      let parts = Self.instants(text)
      return parts.count == 2 ? Medication.Snooze(scheduledAt: parts[0], until: parts[1]) : nil
    }
    return m
  }

  static func fields(_ m: Medication) -> [String: DatabaseValue] {
    func seconds(_ t: TimeInterval?) -> DatabaseValue { t.map { Int($0) }.databaseValue }
    return [
      "name": .text(m.name), "times": .text(Self.text(m.times)), "days": m.days.map(Self.text).databaseValue,
      "dose": m.dose.databaseValue,
      "stock": m.stock.databaseValue, "stock_set_at": m.stockSetAt.databaseValue,
      "refill_at": m.refillAt.databaseValue, "since": m.since.databaseValue,
      "steps": m.steps.map(TaperStep.text).databaseValue,
      "steps_start": m.stepsStart?.description.databaseValue ?? .null,
      "then_keep": m.thenKeep ? .integer(1) : .null, "zone": m.zone.databaseValue,
      "past": m.past.isEmpty ? .null : .text(Self.encode(m.past)),
      "as_needed": m.asNeeded ? .integer(1) : .null, "min_interval": seconds(m.minInterval),
      "max_per_day": m.maxPerDay.databaseValue, "min_gap": seconds(m.minGap),
      "expires": m.expires?.description.databaseValue ?? .null,
      "pauses": m.pauses.isEmpty
        ? .null
        : .text(
          m.pauses.map { "\(ISO8601.string(from: $0.from))/\(ISO8601.string(from: $0.until))" }.joined(separator: ";")),
      "snooze": m.snooze.map {
        DatabaseValue.text("\(ISO8601.string(from: $0.scheduledAt))/\(ISO8601.string(from: $0.until))")
      } ?? .null,
    ]
  }

  /// Times and weekdays as the row and the stored plans both keep them: `08:00,20:00`, `mon,thu`.
  static func text(_ times: [TimeOfDay]) -> String { times.map(\.description).joined(separator: ",") }
  static func text(_ days: [Weekday]) -> String { days.map(\.name).joined(separator: ",") }
  static func times(_ text: String) -> [TimeOfDay] { text.split(separator: ",").compactMap { TimeOfDay(String($0)) } }
  static func days(_ text: String) -> [Weekday] { text.split(separator: ",").compactMap { Weekday(name: String($0)) } }

  static func instants(_ text: String) -> [Date] {
    text.split(separator: "/").compactMap { ISO8601.date(from: String($0)) }
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

  static let doseColumns = doses.list([
    "medication_id", "medication", "dose", "scheduled_at", "status", "at", "shift", "over_limit",
  ])

  static func dose(_ row: Row) throws -> Dose {
    Dose(
      medicationID: try row.get("medication_id"), medication: try row.get("medication"), dose: try row.get("dose"),
      scheduledAt: try row.get("scheduled_at"), status: DoseStatus(rawValue: try row.get("status")) ?? .taken,
      at: try row.get("at"), shift: try row.get("shift", as: Int?.self).map(TimeInterval.init),
      overLimit: try row.get("over_limit", as: Int?.self) == 1)
  }

  func doseFields(_ d: Dose) -> [String: DatabaseValue] {
    [
      "medication_id": .text(d.medicationID), "medication": .text(d.medication), "dose": d.dose.databaseValue,
      "scheduled_at": d.scheduledAt.databaseValue, "status": .text(d.status.rawValue), "at": d.at.databaseValue,
      "shift": d.shift.map { Int($0) }.databaseValue, "over_limit": d.overLimit ? .integer(1) : .null,
      "recorded": now.databaseValue,
    ]
  }
}
