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
  /// Each blood pressure reading (Apple Health's correlations), and each night's sleep.
  public var bloodPressures: [HealthStore.VitalReading] = []
  public var nights: [SleepNight] = []
  /// Lab results and measurements by hand (a donation's are with the donation).
  public var labs: [LabResult] = []
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
    public var restingHeartRate: Double?
    public var heartRateVariability: Double?
    public var oxygenSaturation: Double?
    public var respiratoryRate: Double?

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
    let health = HealthStore(scope)
    records.bloodPressures = try health.vitalReadings(.bloodPressure, from: from, to: now)
    records.nights = try health.sleepNights(from: since?.start(in: calendar), through: LocalDate(now, in: calendar))
    records.labs = try LabStore(scope).added(from: from).reversed()
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
    // The means of the day's measurements, read in one unit each (`VitalKind`).
    let health = HealthStore(db: db, account: account, now: now, calendar: calendar)
    let from = since?.start(in: calendar) ?? .distantPast
    for (kind, keyPath) in [
      (VitalKind.weight, \DailyTotals.weightKg), (.heartRate, \DailyTotals.heartRate),
      (.restingHeartRate, \DailyTotals.restingHeartRate), (.hrv, \DailyTotals.heartRateVariability),
      (.spo2, \DailyTotals.oxygenSaturation), (.respiratoryRate, \DailyTotals.respiratoryRate),
    ] {
      var sums: [LocalDate: (Double, Int)] = [:]
      for reading in try health.vitalReadings(kind, from: from, to: now) {
        let day = LocalDate(reading.at, in: calendar)
        let (sum, n) = sums[day] ?? (0, 0)
        sums[day] = (sum + reading.value, n + 1)
      }
      for (day, (sum, n)) in sums {
        days[day, default: DailyTotals(day: day)][keyPath: keyPath] = (sum / Double(n) * 10).rounded() / 10
      }
    }
    return days.values.sorted { $0.day < $1.day }
  }
}
