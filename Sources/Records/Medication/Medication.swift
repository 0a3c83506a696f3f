import Core
import Foundation

/// A time of day on a schedule, `HH:MM` in the local zone.
public struct TimeOfDay: Comparable, Hashable, Sendable, CustomStringConvertible {
  public let hour: Int
  public let minute: Int

  public init?(_ text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
    else { return nil }
    (hour, minute) = (h, m)
  }

  public var description: String { String(format: "%02d:%02d", hour, minute) }

  public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { (a.hour, a.minute) < (b.hour, b.minute) }
}

/// A day of the week, as schedules name them.
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
  case mon = 1
  case tue, wed, thu, fri, sat, sun

  public init?(name: String) {
    let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    let key = name.lowercased()
    guard let day = Self.allCases.first(where: { $0.name == key || full[$0.rawValue - 1] == key }) else { return nil }
    self = day
  }

  public var name: String { "\(self)" }

  public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A medication and when it is taken: on a schedule (its plan in force, and the plans that
/// edits ended) or as needed.
public struct Medication: Equatable, Sendable {
  public var id: String
  public var name: String
  public var times: [TimeOfDay]
  /// nil: every day.
  public var days: [Weekday]?
  public var dose: String?
  /// The stock counted at `stockSetAt`; doses taken since then are subtracted.
  public var stock: Int?
  public var stockSetAt: Date?
  public var refillAt: Int?
  /// When the plan in force starts: no dose before this counts.
  public var since: Date
  public var steps: [TaperStep]?
  public var stepsStart: LocalDate?
  public var thenKeep = false
  public var zone: String?
  /// Plans that edits ended, oldest first.
  public var past: [MedicationPlan] = []
  /// As needed (PRN): no schedule; takes are checked against these limits instead.
  public var asNeeded = false
  public var minInterval: TimeInterval?
  public var maxPerDay: Int?
  /// A dose taken later than scheduled moves the rest of that day's doses when the next would
  /// come sooner than this after it.
  public var minGap: TimeInterval?
  public var expires: LocalDate?
  public var pauses: [Pause] = []
  public var snooze: Snooze?

  public init(
    id: String = UUID().uuidString.lowercased(), name: String, times: [TimeOfDay], days: [Weekday]?, dose: String?,
    stock: Int?, stockSetAt: Date?, refillAt: Int?, since: Date
  ) {
    self.id = id
    self.name = name
    self.times = times
    self.days = days
    self.dose = dose
    self.stock = stock
    self.stockSetAt = stockSetAt
    self.refillAt = refillAt
    self.since = since
  }

  /// The plan in force.
  public var current: MedicationPlan {
    get {
      MedicationPlan(
        times: times, days: days, dose: dose, steps: steps, stepsStart: stepsStart, thenKeep: thenKeep, zone: zone,
        since: since)
    }
    set {
      (times, days, dose, steps, stepsStart, thenKeep, zone, since) = (
        newValue.times, newValue.days, newValue.dose, newValue.steps, newValue.stepsStart, newValue.thenKeep,
        newValue.zone, newValue.since
      )
    }
  }

  public var plans: [MedicationPlan] { asNeeded ? [] : past + [current] }

  /// The stock level that calls for a refill: as set, else three days of doses.
  public var refillThreshold: Int { refillAt ?? 3 * max(times.count, asNeeded ? (maxPerDay ?? 1) : 0) }

  /// A stretch without doses: from an instant up to another (the start of the day given to
  /// `meds pause --until`, or the moment of `meds resume`).
  public struct Pause: Equatable, Sendable {
    public var from: Date
    public var until: Date

    public func contains(_ at: Date) -> Bool { at >= from && at < until }
  }

  /// A due dose's reminder asked to come again once, at `until`.
  public struct Snooze: Equatable, Sendable {
    /// The dose's scheduled time.
    public var scheduledAt: Date
    public var until: Date
  }
}

/// What happened to a scheduled dose.
public enum DoseStatus: String, CaseIterable, Sendable {
  case taken, skipped, missed, pending
}

/// A scheduled dose (or a dose taken as needed) and what became of it.
public struct Dose: Equatable, Sendable {
  public var medicationID: String
  public var medication: String
  /// The dose in force that day.
  public var dose: String?
  public var scheduledAt: Date
  public var status: DoseStatus
  /// When it was taken or skipped.
  public var at: Date?
  /// When it is due: its scheduled time moved by the shifts of that day's earlier late doses.
  /// Only a moved time is kept, so a dose read from its row is due when it was scheduled.
  public var due: Date {
    get { movedDue ?? scheduledAt }
    set { movedDue = newValue == scheduledAt ? nil : newValue }
  }
  private var movedDue: Date?
  /// How far this late dose moved the rest of its day.
  public var shift: TimeInterval?
  /// An as-needed dose recorded with `--force` past its limits.
  public var overLimit = false

  public init(
    medicationID: String, medication: String, dose: String?, scheduledAt: Date, status: DoseStatus, at: Date?,
    due: Date? = nil, shift: TimeInterval? = nil, overLimit: Bool = false
  ) {
    self.medicationID = medicationID
    self.medication = medication
    self.dose = dose
    self.scheduledAt = scheduledAt
    self.status = status
    self.at = at
    self.movedDue = due.flatMap { $0 == scheduledAt ? nil : $0 }
    self.shift = shift
    self.overLimit = overLimit
  }

  /// The record id: `Dose.id(medication:scheduledAt:)`.
  public var id: String { Self.id(medication: medicationID, scheduledAt: scheduledAt) }

  /// The same dose recorded on two devices is one record: its id is its medication and time.
  static func id(medication: String, scheduledAt: Date) -> String {
    "\(medication)@\(Int64(scheduledAt.timeIntervalSince1970))"
  }
}
