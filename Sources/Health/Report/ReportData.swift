import Core
import Foundation
import Storage

/// What `vital report` shows, gathered once from the stores; the page is a pure function of it.
public struct ReportData: Sendable {
  public var from: LocalDate
  public var to: LocalDate
  public var today: LocalDate
  /// The zone whose days the report counts (donations fall on their local day).
  public var calendar: Calendar
  public var profile = Profile()
  public var email = ""
  public var donations: [Donation] = []
  public var nextEligible: LocalDate?
  /// The least haemoglobin the region's service takes from this donor (g/dL).
  public var minimumHaemoglobin: Double?
  public var periods: [Period] = []
  public var nextPeriod: LocalDate?
  public var medications: [MedicationRow] = []
  /// The last 90 days to `to`, as `vital meds stats --days 90` counts them.
  public var adherence: Adherence?
  public var steps: [(day: LocalDate, steps: Double)] = []
  public var stepsGoal: Double?
  public var places: [(label: String, phase: Phase?)] = []

  public struct MedicationRow: Equatable, Sendable {
    public var name: String
    public var dose: String
    public var schedule: String
    public var since: LocalDate
    public var stock: Int?
  }

  public init(from: LocalDate, to: LocalDate, today: LocalDate, calendar: Calendar) {
    self.from = from
    self.to = to
    self.today = today
    self.calendar = calendar
  }

  /// Everything from `from` to `to` (both local dates, to the end of `to`).
  public static func load(
    db: Database, account: Account, now: Date, calendar: Calendar, from: LocalDate, to: LocalDate
  ) throws -> ReportData {
    var data = ReportData(from: from, to: to, today: LocalDate(now, in: calendar), calendar: calendar)
    let start = from.start(in: calendar)
    let end = to.adding(days: 1, in: calendar).start(in: calendar)
    data.profile = try ProfileStore(db: db, account: account, now: now).load()
    data.email = account.email
    let donations = DonationStore(db: db, account: account, now: now, calendar: calendar)
    data.donations = try donations.history()
      .filter { $0.status == .completed && $0.completedAt.map { $0 >= start && $0 < end } == true }
      .sorted { ($0.completedAt ?? .distantPast) < ($1.completedAt ?? .distantPast) }
    data.nextEligible = try donations.status(profile: data.profile).nextEligible
    data.minimumHaemoglobin = DonationRules.forRegion(data.profile.region).minimumHaemoglobin(sex: data.profile.sex)

    let periods = PeriodStore(db: db, account: account, now: now, calendar: calendar)
    let all = try periods.list()
    data.periods = all.filter { $0.start <= to && ($0.end ?? data.today) >= from }
    // From the periods already read; a prediction needs at least one.
    data.nextPeriod =
      all.isEmpty
      ? nil
      : try CyclePrediction.predict(
        periods: all, pauses: periods.pauses(), today: data.today, count: 1
      ).next.first?.start

    let meds = MedicationStore(db: db, account: account, now: now, calendar: calendar)
    for m in try meds.list().sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
      data.medications.append(
        MedicationRow(
          name: m.name,
          dose: m.steps.map { "tapering: " + $0.map(\.description).joined(separator: ", ") } ?? m.dose ?? "",
          schedule: m.asNeeded
            ? "as needed"
            : m.times.map(\.description).joined(separator: ", ")
              + (m.days.map { " on " + $0.map(\.name).joined(separator: ", ") } ?? " daily"),
          since: LocalDate(m.plans.first?.since ?? m.since, in: calendar), stock: try meds.currentStock(m)))
    }
    data.adherence = try meds.adherence(from: to.adding(days: -89, in: calendar), through: to)

    let counted = try HealthTotals(db: db, accountID: account.id, now: now).counted(
      [.steps], days: from...to, in: calendar)
    data.steps = counted.compactMap { day, measures in
      measures[.steps].map { (day, $0.values.reduce(0, +).rounded()) }
    }.filter { $0.steps > 0 }.sorted { $0.day < $1.day }
    data.stepsGoal = try GoalStore(db: db, account: account, now: now, calendar: calendar).list()
      .filter { $0.kind == .steps }.map(\.target).min()

    let areas = AreaStore(db: db, account: account, now: now)
    data.places = try areas.watches().map { ($0.label, try areas.phase(at: $0.point)) }
    return data
  }
}
