import Core
import Foundation
import Replication
import Storage

/// Workouts as a person reads them: each activity once, with its pace, heart rate and climb.
extension HealthStore {
  public struct WorkoutDetail: Equatable, Sendable {
    public var workout: Workout
    /// Sources whose copies of this activity were left out for it (`WorkoutOverlap`).
    public var alsoBy: [String] = []
    /// The mean of the heart rate readings taken during the workout, in bpm.
    public var heartRate: Double?
    /// Metres climbed along the route.
    public var ascentMetres: Double?
    /// Points of the route kept; 0 when it has none.
    public var routePoints = 0
    /// The workout whose route this one shows: its own, or, when the source ranked first
    /// recorded none (a phone app without GPS), that of another copy of the same activity.
    public var routeWorkoutID: String?

    /// Seconds per kilometre, from the time it took (its duration, else its span) and its distance.
    public var paceSecondsPerKm: Double? {
      guard let metres = workout.distanceMetres, metres >= 10 else { return nil }
      let seconds = workout.durationSeconds ?? workout.end.timeIntervalSince(workout.start)
      return seconds > 0 ? seconds / (metres / 1000) : nil
    }
  }

  static let workoutLookup = RecordLookup(kind: "workout", listCommand: "vital health workouts", table: "workout")

  /// The activities of the account's workouts, Apple's types, sorted.
  public func workoutTypes() throws -> [String] {
    try db.query("SELECT DISTINCT type FROM workout WHERE account_id = ? ORDER BY type", account.id) {
      try $0.get(0, as: String.self)
    }
  }
  static let workoutColumns = workouts.list(Workout.shape.columns.map(\.name))

  /// Workouts that started from `from` and before `before` (nil: the first, the last), of one
  /// activity type or all, in time order; one activity recorded by two sources at once is listed once.
  public func workouts(type: String? = nil, from: Date? = nil, before: Date? = nil) throws -> [WorkoutDetail] {
    var sql = "SELECT \(Self.workoutColumns) FROM workout WHERE account_id = ? AND start >= ? AND start < ?"
    var arguments: [(any DatabaseValueConvertible)?] = [
      account.id, from.map(ISO8601.string(from:)) ?? "", before.map(ISO8601.string(from:)) ?? "~",
    ]
    if let type {
      sql += " AND type = ?"
      arguments.append(type)
    }
    // A row another program wrote that does not read as a workout is not listed.
    let rows = try db.query(sql + " ORDER BY start", arguments: arguments) { try? Workout.shape.read($0) }
      .compactMap { $0 }
    let ranking = try sourceRanking(extra: rows.compactMap(\.source))
    let routes = try routeFigures()
    return try WorkoutOverlap.counted(rows, rank: ranking.rank).map { workout, others in
      var detail = WorkoutDetail(workout: workout, alsoBy: others.map { $0.source ?? "" })
      detail.heartRate = try heartRate(from: workout.start, to: workout.end)
      if let withRoute = ([workout] + others).first(where: { routes[$0.id] != nil }) {
        (detail.ascentMetres, detail.routePoints) = routes[withRoute.id]!
        detail.routeWorkoutID = withRoute.id
      }
      return detail
    }
  }

  /// One workout by its id or a unique prefix of it.
  public func workout(_ idOrPrefix: String) throws -> WorkoutDetail {
    let id = try Self.workoutLookup.id(idOrPrefix, account: account.id, in: db)
    guard
      let workout = try db.queryFirst(
        "SELECT \(Self.workoutColumns) FROM workout WHERE account_id = ? AND id = ?", account.id, id,
        row: { try Workout.shape.read($0) }) ?? nil
    else { throw RecordLookup.Failure.notFound(kind: "workout", id: idOrPrefix, listCommand: "vital health workouts") }
    // As the list tells it: the copy kept for this activity, with the others' route if it has none.
    let around = try workouts(
      type: workout.type, from: workout.start.addingTimeInterval(-86_400),
      before: workout.end.addingTimeInterval(86_400))
    if let listed = around.first(where: { $0.workout.id == id }) { return listed }
    var detail = WorkoutDetail(workout: workout)
    detail.heartRate = try heartRate(from: workout.start, to: workout.end)
    if let route = try routeFigures(workoutID: id)[id] {
      (detail.ascentMetres, detail.routePoints) = route
      detail.routeWorkoutID = id
    }
    return detail
  }

  public enum RouteFailure: Error, Equatable, CustomStringConvertible {
    case none
    case incomplete

    public var description: String {
      switch self {
      case .none:
        "this workout has no route: none came with it (an indoor workout, or one recorded without GPS, has none); if 'vital health import' warned of its route file, import export.zip, which holds the routes"
      case .incomplete:
        "this workout's route is not whole here (a part is missing or damaged); 'vital sync' may bring the rest"
      }
    }
  }

  /// A workout's route, every point in time order; whole or an error.
  public func route(workoutID: String) throws -> [RoutePoint] {
    let parts = try db.query(
      "SELECT \(Self.workoutRoutes.list()) FROM workout_route WHERE account_id = ? AND workout_id = ? ORDER BY part",
      account.id, workoutID
    ) { try? WorkoutRoute.shape.read($0) }
    // A part that does not read (`nil`) leaves the route incomplete.
    guard !parts.isEmpty else { throw RouteFailure.none }
    var points: [RoutePoint] = []
    for (index, part) in parts.enumerated() {
      guard let part, part.part == index, let decoded = part.decodedPoints() else { throw RouteFailure.incomplete }
      points += decoded
    }
    return points
  }

  /// Each workout's climb and point count, summed over its parts.
  private func routeFigures(workoutID: String? = nil) throws -> [String: (Double?, Int)] {
    var sql = "SELECT workout_id, sum(ascent_m), sum(count) FROM workout_route WHERE account_id = ?"
    var arguments: [(any DatabaseValueConvertible)?] = [account.id]
    if let workoutID {
      sql += " AND workout_id = ?"
      arguments.append(workoutID)
    }
    let rows = try db.query(sql + " GROUP BY workout_id", arguments: arguments) { row in
      (try row.get(0, as: String.self), Double.fromDatabaseValue(row[1]), Int.fromDatabaseValue(row[2]) ?? 0)
    }
    return Dictionary(rows.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { a, _ in a })
  }

  /// The mean heart rate over readings that started within the span, in bpm (readings out of
  /// any body's range, or not numbers, left out).
  private func heartRate(from: Date, to: Date) throws -> Double? {
    try db.queryFirst(
      """
      SELECT avg(value) FROM health_sample WHERE account_id = ? AND type = ? AND start >= ? AND start <= ?
      AND typeof(value) IN ('integer', 'real') AND value BETWEEN 20 AND 250 AND (unit IS NULL OR unit IN ('count/min', 'bpm', '/min'))
      """, account.id, HealthType.heartRate, from, to, row: { Double.fromDatabaseValue($0[0]) }) ?? nil
  }

  /// The sources' ranking, with those met only in these rows (not yet in `health_source`)
  /// ranked by their kind.
  func sourceRanking(extra names: [String]) throws -> Ranking {
    let known = try HealthTotals(db: db, accountID: account.id, now: now).sourceRows()
    return Ranking(known + Set(names).sorted().map { HealthSource(name: $0, kind: .init(device: nil, name: $0)) })
  }
}
