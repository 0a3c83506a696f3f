import Core
import Foundation
import Storage

extension Medication {
  /// The dose times of every plan in `[from, to)`, paused ones left out. With `opening`, also
  /// the times of the day the medication was added that came before it was (the first plan's).
  public func slots(from: Date, to: Date, calendar: Calendar, opening: Bool = false) -> [MedicationPlan.Slot] {
    plans.enumerated().flatMap { $1.slots(from: from, to: to, local: calendar, opening: opening && $0 == 0) }
      .filter { slot in !pauses.contains { $0.contains(slot.at) } }
      .sorted { $0.at < $1.at }
  }

  /// The scheduled dose times in `[from, to)`.
  public func scheduled(from: Date, to: Date, calendar: Calendar) -> [Date] {
    slots(from: from, to: to, calendar: calendar).map(\.at)
  }

  /// The day's last plan-free moment after a stopping taper: when the schedule is over.
  public func ends(calendar: Calendar) -> Date? {
    guard !asNeeded, let last = current.lastDay else { return nil }
    return last.adding(days: 1).start(in: current.calendar(local: calendar))
  }
}

extension MedicationStore {
  /// A scheduled dose with the slot it fills.
  struct Scheduled {
    let slot: MedicationPlan.Slot
    let dose: Dose
  }

  /// Every scheduled dose of `medication` whose scheduled time is in `[from, to)`, with what
  /// became of it. A late dose recorded with a shift moves the later doses of its day by as
  /// much (`due`); a dose with no take or skip is missed at the next dose's due time or 12
  /// hours after its own, whichever comes first. The day's doses from before the medication
  /// was added count once recorded; unrecorded, they are there only when `opening` asks
  /// (for a take or skip to find them), open and never missed.
  func schedule(_ m: Medication, from: Date, to: Date, opening: Bool = false) throws -> [Scheduled] {
    guard !m.asNeeded else { return [] }
    let recorded = try events(m.id)
    // The day's earlier doses decide the shifts; a later one decides when a dose is missed.
    let slots = m.slots(
      from: from.addingTimeInterval(-Self.dayReach), to: to.addingTimeInterval(Self.window + 1), calendar: calendar,
      opening: true)
    var shifted: [LocalDate: TimeInterval] = [:]
    var dues: [Date] = []
    for slot in slots {
      dues.append(slot.at.addingTimeInterval(shifted[slot.day] ?? 0))
      if let shift = recorded[slot.at]?.shift, shift > 0 { shifted[slot.day, default: 0] += shift }
    }
    var result: [Scheduled] = []
    for (i, slot) in slots.enumerated() where slot.at >= from && slot.at < to {
      let due = dues[i]
      if var event = recorded[slot.at] {
        event.due = due
        result.append(Scheduled(slot: slot, dose: event))
        continue
      }
      if slot.opening && !opening { continue }
      let limit = due.addingTimeInterval(Self.window)
      let next = dues[(i + 1)...].filter { $0 > due }.min()
      let status: DoseStatus = !slot.opening && min(next ?? limit, limit) <= now ? .missed : .pending
      result.append(
        Scheduled(
          slot: slot,
          dose: Dose(
            medicationID: m.id, medication: m.name, dose: slot.dose, scheduledAt: slot.at, status: status, at: nil,
            due: due)))
    }
    return result
  }

  /// A local day and then some: far enough back to see every earlier dose of a day in any zone.
  static let dayReach: TimeInterval = 40 * 3600

  /// Every scheduled dose of `medication` in `[from, to)` with what became of it.
  public func doses(_ medication: Medication, from: Date, to: Date) throws -> [Dose] {
    try schedule(medication, from: from, to: to).map(\.dose)
  }

  /// The doses whose due time (shifts included) is in `[from, to)`.
  public func dosesDue(_ medication: Medication, from: Date, to: Date) throws -> [Dose] {
    try schedule(medication, from: from.addingTimeInterval(-Self.window), to: to).map(\.dose)
      .filter { $0.due >= from && $0.due < to }
  }

  /// Which scheduled dose a take or skip at `at` is for. A take at 14:30 between doses at
  /// 08:00 and 20:00 is the morning's, if that is still open: people catch up on a dose more
  /// often than they take the next one early, and the later one would leave the morning missed.
  func slot(for medication: Medication, at: Date, named slot: TimeOfDay?) throws -> Scheduled {
    func distance(_ s: Scheduled) -> TimeInterval { abs(s.dose.due.timeIntervalSince(at)) }
    let candidates = try schedule(
      medication, from: at.addingTimeInterval(-Self.window - Self.dayReach), to: at.addingTimeInterval(Self.window + 1),
      opening: true
    ).filter { distance($0) <= Self.window }
    func stamp(_ t: Date) -> String { HumanText(now: now, calendar: calendar).time(t) }
    func sameDay(_ s: Scheduled) -> Bool {
      s.slot.day == LocalDate(at, in: medication.plans.last?.calendar(local: calendar) ?? calendar)
    }
    if let slot {
      guard let named = candidates.first(where: { sameDay($0) && $0.slot.time == slot }) else {
        throw MedicationError.noSuchDose(medication.name, slot: slot.description, times: medication.times)
      }
      if named.dose.at != nil {
        throw MedicationError.alreadyRecorded(status: named.dose.status.rawValue, scheduled: stamp(named.slot.at))
      }
      return named
    }
    // A dose of that day already due and still open comes first, the earliest of them (one
    // from before the medication was added only when no other is due: the first evening dose
    // is not the morning's that was never meant); otherwise the nearest dose, which must then
    // be open (a second take right after the first is a slip, not the next dose twelve hours
    // early).
    if let due = candidates.filter({ $0.dose.at == nil && $0.dose.due <= at && sameDay($0) }).min(by: {
      ($0.slot.opening ? 1 : 0, $0.dose.due) < ($1.slot.opening ? 1 : 0, $1.dose.due)
    }) {
      return due
    }
    guard let nearest = candidates.min(by: { (distance($0), $0.dose.due) < (distance($1), $1.dose.due) }) else {
      throw MedicationError.noDoseNear(medication.name)
    }
    if nearest.dose.at != nil {
      throw MedicationError.alreadyRecorded(status: nearest.dose.status.rawValue, scheduled: stamp(nearest.slot.at))
    }
    return nearest
  }
}
