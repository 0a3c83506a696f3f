import Core
import Foundation
import Replication
import Storage

/// One account's goals, and progress against the day's health totals.
public struct GoalStore: AccountScoped {

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  public enum Failure: Error, Equatable, CustomStringConvertible {
    case badTarget
    case notFound(String)
    case badCatalogue(String)

    public var description: String {
      switch self {
      case .badTarget: return "--target must be a number above 0 and at most 10000000"
      case .notFound(let id): return "no goal '\(id.prefix(40))'; see 'vital goals list'"
      case .badCatalogue(let why):
        return "the goals file is not the goals app's catalogue: \(why); nothing was imported"
      }
    }
  }

  public func list() throws -> [Goal] {
    try db.query(
      "SELECT \(Self.goals.list()) FROM goal WHERE account_id = ? ORDER BY type, target, id", account.id,
      row: Goal.shape.read
    ).compactMap { $0 }
  }

  @discardableResult
  public func add(_ kind: Goal.Kind, target: Double, title: String?) throws -> Goal {
    let goal = Goal(
      id: UUID().uuidString.lowercased(), kind: kind, target: target, title: title, description: nil, reward: nil)
    try write(goal)
    return goal
  }

  func write(_ goal: Goal) throws {
    guard goal.target.isFinite, goal.target > 0, goal.target <= 10_000_000 else { throw Failure.badTarget }
    try replica.write(.goal, id: goal.id, Goal.shape.fields(goal, Goal.synced))
  }

  static let lookup = RecordLookup(kind: "goal", listCommand: "vital goals list", table: "goal")

  /// A goal by id or unambiguous prefix.
  public func find(_ idOrPrefix: String) throws -> Goal {
    let id = try Self.lookup.id(idOrPrefix, account: account.id, in: db)
    guard let goal = try list().first(where: { $0.id == id }) else { throw Failure.notFound(idOrPrefix) }
    return goal
  }

  @discardableResult
  public func remove(_ idOrPrefix: String) throws -> Goal {
    let goal = try find(idOrPrefix)
    try replica.delete(.goal, id: goal.id)
    return goal
  }

  /// Imports the goals app's catalogue (`{"items":[{"id","title","description","type","goal","reward"}]}`).
  /// Ids come from the catalogue's, so importing it again changes nothing. All or nothing.
  public func importCatalogue(_ data: Data) throws -> (added: Int, unchanged: Int) {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw Failure.badCatalogue("not a JSON object")
    }
    guard let items = root["items"] as? [[String: Any]] else { throw Failure.badCatalogue("no \"items\" array") }
    var goals: [Goal] = []
    for (i, item) in items.enumerated() {
      let id = (item["id"] as? String) ?? (item["id"] as? NSNumber)?.stringValue
      guard let id, !id.isEmpty, id.count <= 64 else { throw Failure.badCatalogue("item \(i + 1) has no id") }
      guard let kind = (item["type"] as? String).flatMap(Goal.Kind.init(catalogue:)) else {
        throw Failure.badCatalogue("item \(i + 1) has a type other than step, walking_distance or running_distance")
      }
      guard let target = (item["goal"] as? NSNumber)?.doubleValue, !(item["goal"] is Bool) else {
        throw Failure.badCatalogue("item \(i + 1) has no numeric goal")
      }
      let reward = item["reward"].flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
      goals.append(
        Goal(
          id: "catalogue-\(id)", kind: kind, target: target, title: item["title"] as? String,
          description: item["description"] as? String, reward: reward.map { String(decoding: $0, as: UTF8.self) }))
    }
    let existing = Dictionary(uniqueKeysWithValues: try list().map { ($0.id, $0) })
    var added = 0
    try db.transaction { _ in
      for goal in goals where existing[goal.id] != goal {
        try write(goal)
        added += 1
      }
    }
    return (added, goals.count - added)
  }

  /// The health data goals are measured in, read through its own store.
  var health: HealthStore { HealthStore(scope) }

  public func progress(on day: LocalDate) throws -> (goals: [Goal.Progress], totals: HealthStore.DayTotals) {
    let totals = try health.totals(on: day)
    var lastData: [HealthTotals.Measure: LocalDate] = [:]
    let progress = try list().map { goal in
      let measure = goal.kind.measure
      // Running distance comes from workouts: a day with distance and no run did run 0 km.
      let value: Double?
      switch goal.kind {
      case .steps: value = totals.value(.steps)
      case .walkingDistance: value = totals.value(.distance)
      case .runningDistance: value = totals.running
      }
      if lastData[measure] == nil { lastData[measure] = try health.lastDataDay(of: measure, upTo: day) }
      return Goal.Progress(goal: goal, value: value, lastData: lastData[measure])
    }
    return (progress, totals)
  }
}
