import Core
import Foundation
import Records
import Replication
import Storage

/// What a FHIR bundle is made of: the account's records as the domain knows them, gathered once
/// from the stores so that the bundle itself is a pure function of them.
public struct FHIRRecords: Sendable {
  public var profileID: String
  public var profile: Profile
  public var email: String
  public var donations: [Donation] = []
  public var periods: [Period] = []
  public var medications: [Medication] = []
  public var doses: [Dose] = []
  public var days: [DailyTotals] = []
  /// Each day's measures start and end at the local midnights of this zone.
  public var calendar: Calendar

  /// One local day's figures: totals counted once across sources (steps, distance), and means of
  /// the day's measurements (weight, heart rate). Nil where the day has none.
  public struct DailyTotals: Equatable, Sendable {
    public let day: LocalDate
    public var steps: Double?
    public var distanceMetres: Double?
    public var weightKg: Double?
    public var heartRate: Double?

    public init(
      day: LocalDate, steps: Double? = nil, distanceMetres: Double? = nil, weightKg: Double? = nil,
      heartRate: Double? = nil
    ) {
      self.day = day
      self.steps = steps
      self.distanceMetres = distanceMetres
      self.weightKg = weightKg
      self.heartRate = heartRate
    }
  }

  public init(profileID: String, profile: Profile, email: String, calendar: Calendar) {
    self.profileID = profileID
    self.profile = profile
    self.email = email
    self.calendar = calendar
  }

  /// The account's records from `since` on (records without a date, such as the profile and the
  /// medication list, always).
  public static func load(
    db: Database, account: Account, now: Date, calendar: Calendar, since: LocalDate? = nil
  ) throws -> FHIRRecords {
    let scope = AccountScope(db: db, account: account, now: now, calendar: calendar)
    let profiles = ProfileStore(scope)
    var records = FHIRRecords(
      profileID: profiles.profileID, profile: try profiles.load(), email: account.email, calendar: calendar)
    let from = since?.start(in: calendar) ?? .distantPast
    records.donations = try DonationStore(scope).history()
      .filter { $0.status == .completed && ($0.completedAt ?? .distantPast) >= from }
      .sorted { ($0.completedAt ?? .distantPast, $0.id) < ($1.completedAt ?? .distantPast, $1.id) }
    records.periods = try PeriodStore(scope).list()
      .filter { since == nil || ($0.end ?? LocalDate(now, in: calendar)) >= since! }
      .sorted { $0.start < $1.start }
    let meds = MedicationStore(scope)
    records.medications = try meds.list().sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    records.doses = try meds.history().filter { $0.scheduledAt >= from && $0.status != .pending }
    records.days = try dailyTotals(db: db, account: account, now: now, calendar: calendar, since: since)
    return records
  }

  static func dailyTotals(
    db: Database, account: Account, now: Date, calendar: Calendar, since: LocalDate?
  ) throws -> [DailyTotals] {
    var days: [LocalDate: DailyTotals] = [:]
    let today = LocalDate(now, in: calendar)
    let counted = [HealthTotals.Measure.steps, .distance].map(\.type)
    if let first = try db.scalar(
      String.self,
      "SELECT min(start) FROM health_sample WHERE account_id = ? AND type IN (?, ?)", account.id, counted[0],
      counted[1]
    ).flatMap(ISO8601.date(from:)) {
      let start = max(LocalDate(first, in: calendar), since ?? LocalDate(first, in: calendar))
      if start <= today {
        let totals = try HealthTotals(db: db, accountID: account.id, now: now).counted(
          [.steps, .distance], days: start...today, in: calendar)
        for (day, measures) in totals {
          let steps = measures[.steps].map { $0.values.reduce(0, +) }
          let metres = measures[.distance].map { $0.values.reduce(0, +) }
          guard (steps ?? 0) > 0 || (metres ?? 0) > 0 else { continue }
          days[day] = DailyTotals(
            day: day, steps: steps.map { $0.rounded() }, distanceMetres: metres.map { ($0 * 10).rounded() / 10 })
        }
      }
    }
    let from = since.map { ISO8601.string(from: $0.start(in: calendar).addingTimeInterval(-86_400)) } ?? ""
    for (type, keyPath, scale) in [
      (HealthType.bodyMass, \DailyTotals.weightKg, HealthType.kilograms),
      (HealthType.heartRate, \DailyTotals.heartRate, ["count/min": 1.0]),
    ] {
      var sums: [LocalDate: (Double, Int)] = [:]
      try db.forEachRow(
        "SELECT start, value, unit FROM health_sample WHERE account_id = ? AND type = ? AND start >= ?", account.id,
        type, from
      ) { row in
        guard let start = ISO8601.date(from: try row.get(0, as: String.self)),
          let value = try row.get(1, as: Double?.self), let factor = scale[(try row.get(2, as: String?.self)) ?? ""]
        else { return }
        let day = LocalDate(start, in: calendar)
        guard since.map({ day >= $0 }) ?? true else { return }
        let (sum, n) = sums[day] ?? (0, 0)
        sums[day] = (sum + value * factor, n + 1)
      }
      for (day, (sum, n)) in sums {
        days[day, default: DailyTotals(day: day)][keyPath: keyPath] = (sum / Double(n) * 10).rounded() / 10
      }
    }
    return days.values.sorted { $0.day < $1.day }
  }
}
