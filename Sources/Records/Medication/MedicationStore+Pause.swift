import Core
import Foundation
import Storage

/// Pauses, snoozes and taking the last record back.
extension MedicationStore {
  /// No doses from now until the start of `until` (in the schedule's zone): none reminds, none
  /// is missed. A pause already running is replaced.
  @discardableResult
  public func pause(_ key: String, until: LocalDate) throws -> Medication {
    var m = try find(key)
    guard !m.asNeeded else { throw MedicationError.asNeededHasNoSchedule(m.name) }
    let end = until.start(in: m.current.calendar(local: calendar))
    guard end > now else { throw MedicationError.pauseInThePast }
    m.pauses.removeAll { $0.contains(now) || $0.from >= now }
    m.pauses.append(Medication.Pause(from: now, until: end))
    try replica.write(.medication, id: m.id, Medication.shape.fields(m, of: [\.pauses]))
    return m
  }

  /// Ends a running pause (or cancels one yet to come) now.
  @discardableResult
  public func resume(_ key: String) throws -> Medication {
    var m = try find(key)
    guard m.pauses.contains(where: { $0.until > now }) else { throw MedicationError.notPaused(m.name) }
    m.pauses = m.pauses.compactMap { p in
      if p.until <= now { return p }
      if p.from >= now { return nil }
      return Medication.Pause(from: p.from, until: now)
    }
    try replica.write(.medication, id: m.id, Medication.shape.fields(m, of: [\.pauses]))
    return m
  }

  /// Whether the dose scheduled at `scheduledAt` has no take or skip yet.
  public func isOpen(_ m: Medication, scheduledAt: Date) throws -> Bool { try events(m.id)[scheduledAt] == nil }

  /// The pause running now, if any.
  public func pausedNow(_ m: Medication) -> Medication.Pause? { m.pauses.first { $0.contains(now) } }

  /// The reminder of the dose due now (the latest one due and still open) comes again once,
  /// `span` from now.
  public func snooze(_ key: String, for span: TimeInterval) throws -> (Medication, Dose) {
    var m = try find(key)
    guard !m.asNeeded else { throw MedicationError.asNeededHasNoSchedule(m.name) }
    guard (60...12 * 3600).contains(span) else { throw MedicationError.badSpan("--for") }
    let open = try dosesDue(m, from: now.addingTimeInterval(-Self.window), to: now.addingTimeInterval(1))
      .filter { $0.status == .pending }
    guard let due = open.last else { throw MedicationError.nothingDue(m.name) }
    m.snooze = Medication.Snooze(scheduledAt: due.scheduledAt, until: now.addingTimeInterval(span))
    try replica.write(.medication, id: m.id, Medication.shape.fields(m, of: [\.snooze]))
    return (m, due)
  }
}

extension MedicationStore {
  /// The dose in force today: a taper's step, else the medication's dose.
  public func doseToday(_ m: Medication) -> String? {
    guard !m.asNeeded, m.steps != nil else { return m.dose }
    return m.current.dose(on: LocalDate(now, in: m.current.calendar(local: calendar))).dose
  }

  /// The next dose: the next open scheduled one at its due time, or for a medication taken as
  /// needed the first moment one is allowed (nil: now).
  public func next(_ m: Medication) throws -> Date? {
    if m.asNeeded { return try nextAllowed(m, at: now)?.at }
    // A dose due earlier and still open (not yet missed) comes first: it is the one to take.
    return try dosesDue(m, from: now.addingTimeInterval(-Self.window), to: now.addingTimeInterval(8 * Self.day))
      .first { $0.status == .pending }?.due
  }
}
