import Core
import Foundation
import Storage

/// Medications taken as needed (PRN): no schedule, but a minimum interval between doses and a
/// maximum over any 24 hours.
extension MedicationStore {
  /// When the next dose is allowed after the doses taken so far (nil: now), and why.
  public struct NextAllowed: Equatable, Sendable {
    public let at: Date
    public let reason: Reason

    public enum Reason: String, Sendable {
      case interval = "min-interval"
      case maxPerDay = "max-per-day"
    }
  }

  /// When a dose at `at` would break a limit: the first moment one is allowed; nil if it is
  /// allowed at `at`. Doses on both sides of `at` count, so a dose recorded after the fact is
  /// checked against those taken later too.
  public func nextAllowed(_ m: Medication, at: Date) throws -> NextAllowed? {
    let takes = try recordedDoses(m.id, from: at.addingTimeInterval(-Self.day), to: at.addingTimeInterval(Self.day))
      .filter { $0.status == .taken }.map(\.scheduledAt)
    var blocked: [NextAllowed] = []
    if let interval = m.minInterval,
      let last = takes.filter({ abs($0.timeIntervalSince(at)) < interval }).max()
    {
      blocked.append(NextAllowed(at: last.addingTimeInterval(interval), reason: .interval))
    }
    if let max = m.maxPerDay {
      // Rolling 24 hours: the window ending at `at` may hold max - 1 doses before this one.
      let before = takes.filter { $0 > at.addingTimeInterval(-Self.day) && $0 <= at }.sorted()
      if before.count >= max {
        blocked.append(NextAllowed(at: before[before.count - max].addingTimeInterval(Self.day), reason: .maxPerDay))
      }
    }
    return blocked.max { $0.at < $1.at }
  }

  static let day: TimeInterval = 86_400

  func takeAsNeeded(_ m: Medication, at: Date, force: Bool) throws -> Dose {
    let blocked = try nextAllowed(m, at: at)
    if let blocked, !force {
      let when = HumanText(now: now, calendar: calendar).time(blocked.at)
      switch blocked.reason {
      case .interval:
        throw MedicationError.tooSoon(m.name, interval: TimeSpan.text(m.minInterval ?? 0), next: when)
      case .maxPerDay:
        throw MedicationError.tooMany(m.name, max: m.maxPerDay ?? 0, next: when)
      }
    }
    let id = Dose.id(medication: m.id, scheduledAt: at)
    if try db.scalar(Int.self, "SELECT count(*) FROM dose WHERE account_id = ? AND id = ?", account.id, id) != 0 {
      throw MedicationError.alreadyRecorded(
        status: "taken", scheduled: HumanText(now: now, calendar: calendar).time(at))
    }
    let dose = Dose(
      medicationID: m.id, medication: m.name, dose: m.dose, scheduledAt: at, status: .taken, at: at,
      overLimit: blocked != nil)
    try replica.write(.dose, id: id, doseFields(dose))
    return dose
  }
}
