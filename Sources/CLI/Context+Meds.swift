import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Storage

extension Context where Store == MedicationStore {
  /// `--dose HH:MM`, checked.
  static func slot(_ text: String?) throws -> TimeOfDay? {
    guard let text else { return nil }
    guard let time = TimeOfDay(text) else { throw MedicationError.badTime(text) }
    return time
  }

  func json(_ m: Medication) throws -> JSON {
    let today = store.doseToday(m)
    return .object([
      ("id", .string(m.id)), ("name", .string(m.name)), ("times", .array(m.times.map { .string($0.description) })),
      ("days", m.days.map { .array($0.map { .string($0.name) }) } ?? .null), ("dose", .optional(m.dose)),
      ("stock", try store.currentStock(m).map { JSON.int($0) } ?? .null),
      ("refill_at", m.stock == nil ? .null : .int(m.refillThreshold)),
      ("as_needed", .bool(m.asNeeded)), ("min_interval", .optional(m.minInterval.map(TimeSpan.text))),
      ("max_per_day", m.maxPerDay.map { JSON.int($0) } ?? .null),
      (
        "steps",
        m.steps.map { .array($0.map { .object([("dose", .string($0.dose)), ("days", .int($0.days))]) }) } ?? .null
      ),
      ("steps_start", .optional(m.stepsStart?.description)),
      ("after_steps", m.steps == nil ? .null : .string(m.thenKeep ? "keep" : "stop")),
      ("ends", app.iso(m.ends(calendar: app.calendar))),
      ("dose_today", .optional(today)), ("zone", .string(m.zone ?? "local")),
      ("min_gap", .optional(m.minGap.map(TimeSpan.text))), ("expires", .optional(m.expires?.description)),
      ("paused_until", app.iso(store.pausedNow(m)?.until)),
      ("next", app.iso(try store.next(m))),
    ])
  }

  /// When the next dose is: due (scheduled) or allowed (as needed; now when it is).
  func next(_ m: Medication) throws -> String {
    guard let at = try store.next(m) else { return m.asNeeded ? "now" : "-" }
    return app.human(at)
  }

  func line(_ m: Medication) throws -> String {
    let days = m.asNeeded ? "" : "  " + m.daysText
    let stock = try store.currentStock(m).map { "  stock \($0)" } ?? ""
    let human = HumanText(now: app.now, calendar: app.calendar)
    let steps = m.steps.map { "  taper \(TaperStep.text($0)) from \(m.stepsStart.map(human.day) ?? "today")" } ?? ""
    return "\(m.name)  \(m.scheduleText)\(days)\(dose(m).map { "  \($0)" } ?? "")\(steps)\(stock)"
  }

  /// The dose in force today; for a taper not begun, its first dose and day; after it, `ended`.
  func dose(_ m: Medication) -> String? {
    if let today = store.doseToday(m) { return today }
    guard let steps = m.steps, let first = steps.first, let start = m.stepsStart else { return m.dose }
    return start > LocalDate(store.now, in: m.current.calendar(local: store.calendar))
      ? "\(first.dose) from \(start)" : "ended"
  }

  /// How a person names a recorded dose: `Ibuprofen@2026-11-23T08:00`.
  func key(_ d: Dose) -> String {
    let local = ISO8601.string(from: d.scheduledAt, timeZone: app.timeZone)
    return "\(d.medication)@\(local.prefix(16))"
  }

  func json(_ d: Dose) -> JSON {
    .object([
      ("key", .string(key(d))), ("scheduled_at", app.iso(d.scheduledAt)), ("medication", .string(d.medication)),
      ("dose", .optional(d.dose)), ("status", .string(d.status.rawValue)), ("at", app.iso(d.at)),
      ("due", app.iso(d.due)), ("over_limit", .bool(d.overLimit)),
    ])
  }
}
