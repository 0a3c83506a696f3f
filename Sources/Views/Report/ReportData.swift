import Core
import Foundation
import Records
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
  /// What the profile lacks for the eligibility rules (sex, birth date, ...): then no day is known.
  public var eligibilityMissing: [String] = []
  /// The least haemoglobin the region's service takes from this donor (g/dL).
  public var minimumHaemoglobin: Double?
  public var periods: [Period] = []
  /// The latest period on or before `to`, whether in the window or not.
  public var lastPeriod: Period?
  public var nextPeriod: LocalDate?
  /// The cycle under way, or the last one before it with temperatures, as charted.
  public var temperatures: TemperatureCycle?
  public var medications: [MedicationRow] = []
  /// The last 90 days to `to`, as `vital meds stats --days 90` counts them.
  public var adherence: Adherence?
  public var steps: [(day: LocalDate, steps: Double)] = []
  public var stepsGoal: Double?
  public var places: [Place] = []
  /// The last 30 nights up to `to` (nil where nothing was said of one), and the window's daily
  /// means of weight and resting heart rate and its blood pressure readings.
  public var nights: [(day: LocalDate, night: SleepNight?)] = []
  public var weight: [(day: LocalDate, value: Double)] = []
  public var restingHeartRate: [(day: LocalDate, value: Double)] = []
  public var bloodPressure: [(day: LocalDate, systolic: Double, diastolic: Double)] = []
  /// Every kind of vital measured in the window: its readings' range and the latest one.
  public var measurements: [Measurement] = []
  /// Each test with a result in the five years up to `to`, in the catalogue's order.
  public var labs: [LabRow] = []

  /// A test's latest result and those before it, oldest first, read against the profile's sex.
  public struct LabRow: Sendable {
    public var test: LabTest
    public var results: [LabResult]
    public var latest: LabResult { results.last! }
  }

  public struct Measurement: Equatable, Sendable {
    public var kind: VitalKind
    public var value = HealthStore.VitalStats()
    /// A blood pressure's lower number; nil for other kinds.
    public var diastolic: HealthStore.VitalStats?
    public var latest: HealthStore.VitalReading
  }

  public struct MedicationRow: Equatable, Sendable {
    public var name: String
    /// The dose on `to` (a taper's step of that day), or the plain dose.
    public var dose: String
    public var schedule: String
    public var since: LocalDate
    public var stock: Int?
    public var asNeeded = false
    /// A taper: its steps, and its last day with a dose when it stops.
    public var steps: String?
    public var ends: LocalDate?
  }

  /// Waking temperatures of one cycle with its sympto-thermal evaluation.
  public struct TemperatureCycle: Equatable, Sendable {
    public let start: LocalDate
    /// The day before the next period, or `to` for the cycle under way.
    public let end: LocalDate
    public let underWay: Bool
    public let points: [(date: LocalDate, celsius: Double, excluded: Bool)]
    public let signs: SymptoThermal

    public static func == (a: TemperatureCycle, b: TemperatureCycle) -> Bool {
      a.start == b.start && a.end == b.end && a.signs == b.signs && a.points.count == b.points.count
    }
  }

  /// A watched place as `vital area locate` tells it.
  public struct Place: Equatable, Sendable {
    public let label: String
    public let area: String?
    public let incidence: Double?
    public let asOf: LocalDate?
    public let phase: Phase?
    /// Days from `asOf` to `to`.
    public let age: Int?
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
    let scope = AccountScope(db: db, account: account, now: now, calendar: calendar)
    var data = ReportData(from: from, to: to, today: LocalDate(now, in: calendar), calendar: calendar)
    let start = from.start(in: calendar)
    let end = to.adding(days: 1, in: calendar).start(in: calendar)
    data.profile = try ProfileStore(scope).load()
    data.email = account.email
    let donations = DonationStore(scope)
    data.donations = try donations.history()
      .filter { $0.status == .completed && $0.completedAt.map { $0 >= start && $0 < end } == true }
      .sorted { ($0.completedAt ?? .distantPast) < ($1.completedAt ?? .distantPast) }
    let status = try donations.status(profile: data.profile, periodStarts: try PeriodStore(scope).startDays())
    data.nextEligible = status.nextEligible
    data.eligibilityMissing = status.eligibility.missing
    data.minimumHaemoglobin = DonationRules.forRegion(data.profile.region).minimumHaemoglobin(sex: data.profile.sex)

    try data.loadCycle(PeriodStore(scope))

    let meds = MedicationStore(scope)
    for m in try meds.list().sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
      let day = min(to, data.today)
      let dose = m.steps != nil ? m.current.dose(on: day).dose : m.dose
      var row = MedicationRow(
        name: m.name, dose: dose ?? "",
        schedule: m.asNeeded
          ? "as needed"
            + (m.minInterval.map { ", at least \(TimeSpan.text($0)) apart" } ?? "")
            + (m.maxPerDay.map { ", at most \($0) a day" } ?? "")
          : m.times.map(\.description).joined(separator: ", ")
            + (m.days.map { " on " + $0.map(\.name).joined(separator: ", ") } ?? " daily"),
        since: LocalDate(m.plans.first?.since ?? m.since, in: calendar), stock: try meds.currentStock(m))
      row.asNeeded = m.asNeeded
      row.steps = m.steps.map { $0.map(\.description).joined(separator: ", ") }
      row.ends = m.current.lastDay
      data.medications.append(row)
    }
    data.adherence = try meds.adherence(from: to.adding(days: -89, in: calendar), through: to)

    let counted = try HealthTotals(db: db, accountID: account.id, now: now).counted(
      [.steps], days: from...to, in: calendar)
    data.steps = counted.compactMap { day, measures in
      measures[.steps].map { (day, $0.values.reduce(0, +).rounded()) }
    }.filter { $0.steps > 0 }.sorted { $0.day < $1.day }
    data.stepsGoal = try GoalStore(scope).list()
      .filter { $0.kind == .steps }.map(\.target).min()
    try data.loadBody(HealthStore(scope), start: start, end: end)
    try data.loadLabs(LabStore(scope), donations)

    let areas = AreaStore(db: db, account: account, now: now)
    let scale = try areas.scale()
    data.places = try areas.watches().map { watch in
      let area = try? areas.locate(watch.point)
      let stat = try area.flatMap { try areas.stat($0.id) }
      let asOf = stat?.asOf.flatMap { LocalDate(String($0.prefix(10))) }
      return Place(
        label: watch.label, area: area?.name, incidence: stat?.incidence, asOf: asOf,
        phase: scale.phase(stat?.incidence),
        age: asOf.map { $0.days(to: to) })
    }
    return data
  }

  /// The cycle under way when it has a waking temperature, else the latest one before it that
  /// has: its notes from its first day to the day before the next period.
  /// The cycle's part of the window: the periods in it, the last one, the cycle charted by
  /// temperature, and the next period predicted.
  public mutating func loadCycle(_ periods: PeriodStore) throws {
    let all = try periods.list()
    self.periods = all.filter { $0.start <= to && ($0.end ?? today) >= from }
    lastPeriod = all.last { $0.start <= to }
    temperatures = try Self.temperatureCycle(all.filter { $0.start <= to }, store: periods, to: to)
    // From the periods already read; a prediction needs at least one.
    nextPeriod =
      all.isEmpty
      ? nil
      : try CyclePrediction.predict(periods: all, pauses: periods.pauses(), today: today, count: 1).next.first?.start
  }

  static func temperatureCycle(_ periods: [Period], store: PeriodStore, to: LocalDate) throws -> TemperatureCycle? {
    for (i, period) in periods.enumerated().reversed().prefix(3) {
      let next = i + 1 < periods.count ? periods[i + 1].start.adding(days: -1) : to
      let notes = try store.notes(from: period.start, to: next)
      let points = notes.compactMap { n in n.temperature.map { (n.date, $0, n.temperatureExcluded) } }
      guard points.count >= 3 else { continue }
      return TemperatureCycle(
        start: period.start, end: next, underWay: i == periods.count - 1, points: points,
        signs: SymptoThermal.evaluate(notes))
    }
    return nil
  }
}
