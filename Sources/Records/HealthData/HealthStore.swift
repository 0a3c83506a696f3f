import Core
import Foundation
import Replication
import Storage

/// One account's health samples: manual additions and daily totals.
public struct HealthStore: AccountScoped {

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  public enum Failure: Error, Equatable, CustomStringConvertible {
    case unknownType(String)
    case badValue
    case inTheFuture

    public var description: String {
      switch self {
      case .unknownType(let t):
        return
          "unknown type '\(t.prefix(40))'; use one of \(HealthType.manual.map(\.name).joined(separator: ", ")) (distance-m, active-energy-kcal and exercise-min are their old names)"
      case .badValue: return "the value must be a number from 0 to 1000000"
      case .inTheFuture: return "that time is in the future; add a sample once it happened"
      }
    }
  }

  /// The source of samples added by hand.
  public static let manualSource = "Vital"

  /// Adds a sample typed by hand (source "Vital").
  @discardableResult
  public func add(type name: String, value: Double, at: Date?) throws -> String {
    guard let measure = HealthTotals.Measure(name: name),
      let kind = HealthType.manual.first(where: { $0.name == measure.rawValue })
    else { throw Failure.unknownType(name) }
    guard value.isFinite, (0...1_000_000).contains(value) else { throw Failure.badValue }
    let at = at ?? now
    guard at <= now else { throw Failure.inTheFuture }
    let id = UUID().uuidString.lowercased()
    let replica = Replica(db: db, accountID: account.id, now: now)
    try db.transaction { _ in
      try Self.note([Self.manualSource: (.other, false)], replica: replica)
      let sample = Sample(
        id: id, type: kind.type, value: value, unit: kind.unit, source: Self.manualSource, start: at, end: at)
      try replica.write(.healthSample, id: id, Sample.shape.fields(sample, Sample.synced))
    }
    return id
  }

  public struct DayTotals: Equatable, Sendable {
    public var steps: Double = 0
    public var walkingRunningMetres: Double = 0
    public var runningMetres: Double = 0
    public var activeKcal: Double = 0
    public var exerciseMinutes: Double = 0
    public var activity: ActivityDay?
    /// What each source counted toward each cumulative type (sources with samples that day
    /// and nothing counted show 0).
    public var sources: [HealthTotals.Measure: [String: Double]] = [:]

    /// Whether a source counted anything of `measure` that day: without, the day has no data
    /// for it, which is not 0.
    public func hasData(_ measure: HealthTotals.Measure) -> Bool {
      (sources[measure] ?? [:]).values.reduce(0, +) > 0
    }

    /// The day's total of `measure`, nil without data.
    public func value(_ measure: HealthTotals.Measure) -> Double? {
      guard hasData(measure) else { return nil }
      switch measure {
      case .steps: return steps
      case .distance: return walkingRunningMetres
      case .energy: return activeKcal
      case .exercise: return exerciseMinutes
      }
    }

    /// Running distance comes from running workouts: a day with distance data and no run ran 0.
    public var running: Double? { hasData(.distance) || runningMetres > 0 ? runningMetres : nil }
  }

  public struct ActivityDay: Equatable, Sendable {
    public var moveKcal: Double?, moveKcalGoal: Double?
    public var moveMinutes: Double?, moveMinutesGoal: Double?
    public var exerciseMinutes: Double?, exerciseGoal: Double?
    public var standHours: Double?, standGoal: Double?
  }

  /// Totals for a local day: cumulative types as `CumulativeCount` counts them across sources
  /// (samples crossing midnight split in proportion). Running distance is the distance of
  /// running workouts (the export has no separate running distance record).
  public func totals(on day: LocalDate) throws -> DayTotals {
    let from = day.start(in: calendar)
    let to = day.adding(days: 1, in: calendar).start(in: calendar)
    var totals = DayTotals()
    let counted =
      try HealthTotals(db: db, accountID: account.id, now: now).counted(
        HealthTotals.Measure.allCases, days: day...day, in: calendar)[day] ?? [:]
    totals.sources = counted
    func sum(_ m: HealthTotals.Measure) -> Double { counted[m].map { $0.values.reduce(0, +) } ?? 0 }
    totals.steps = sum(.steps)
    totals.walkingRunningMetres = sum(.distance)
    totals.activeKcal = sum(.energy)
    totals.exerciseMinutes = sum(.exercise)
    totals.runningMetres =
      try db.scalar(
        Double.self,
        "SELECT total(distance_m) FROM workout WHERE account_id = ? AND type = ? AND start >= ? AND start < ?",
        account.id, HealthType.running, from, to) ?? 0
    let summary = try db.queryFirst(
      "SELECT \(Self.activitySummaries.list()) FROM activity_summary WHERE account_id = ? AND date = ?", account.id,
      day.description, row: ActivitySummary.shape.read)
    totals.activity = summary.flatMap { $0 }?.rings
    return totals
  }
}
