import CLIApp
import CLICore
import Core
import Records

extension App {
  func json(_ d: Donation) -> JSON {
    .object([
      ("id", .string(d.id)),
      ("kind", .string(d.kind.rawValue)),
      ("status", .string(d.status.rawValue)),
      ("scheduled_at", iso(d.scheduledAt)),
      ("completed_at", iso(d.completedAt)),
      ("place", .string(d.place)),
      ("notes", .optional(d.notes)),
      ("vitals", json(d.vitals)),
    ])
  }

  func json(_ v: DonationVitals) -> JSON {
    .object([
      (Donation.shape.name(of: \.vitals.haemoglobin), v.haemoglobin.map { .double($0) } ?? .null),
      (Donation.shape.name(of: \.vitals.ferritin), v.ferritin.map { .double($0) } ?? .null),
      (Donation.shape.name(of: \.vitals.systolic), v.systolic.map { .int($0) } ?? .null),
      (Donation.shape.name(of: \.vitals.diastolic), v.diastolic.map { .int($0) } ?? .null),
      (Donation.shape.name(of: \.vitals.pulse), v.pulse.map { .int($0) } ?? .null),
    ])
  }

  func line(_ d: Donation) -> String {
    "\(d.id.prefix(8))  \(human(d.date))  \(d.kind.rawValue)  \(d.status.rawValue)  \(d.place)"
  }

  func json(_ e: Eligibility) -> JSON {
    .object([
      ("eligible", .bool(e.eligible)),
      ("next_eligible", .optional(e.nextEligible?.description)),
      ("reasons", .array(e.reasons.map(JSON.string))),
      ("missing", .array(e.missing.map(JSON.string))),
    ])
  }

  func json(_ q: Questionnaire.Result) -> JSON {
    .object([
      ("id", .string(q.id)),
      ("taken_at", iso(q.takenAt)),
      ("eligible", .bool(q.eligible)),
      ("deferred_until", .optional(q.deferredUntil.map { LocalDate($0, in: calendar).description })),
      ("reasons", .array(q.reasons.map(JSON.string))),
    ])
  }
}
