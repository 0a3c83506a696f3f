import Foundation
import Replication
import Storage

extension GoalStore {
  /// The fields an edit may change; nil leaves one as it is, `.some(nil)` clears an optional one.
  public struct Changes: Sendable {
    public var kind: Goal.Kind?
    public var target: Double?
    public var title: String??
    public var description: String??

    public init(kind: Goal.Kind? = nil, target: Double? = nil, title: String?? = nil, description: String?? = nil) {
      self.kind = kind
      self.target = target
      self.title = title
      self.description = description
    }
  }

  /// Changes the given fields of one goal, writing only those that differ (so an edit of the
  /// title here and of the target on another device both survive).
  public func edit(_ idOrPrefix: String, _ changes: Changes) throws -> Goal {
    let old = try find(idOrPrefix)
    var goal = old
    if let kind = changes.kind { goal.kind = kind }
    if let target = changes.target {
      guard target.isFinite, target > 0, target <= 10_000_000 else { throw Failure.badTarget }
      goal.target = target
    }
    if let title = changes.title { goal.title = title.flatMap { $0.isEmpty ? nil : $0 } }
    if let description = changes.description { goal.description = description.flatMap { $0.isEmpty ? nil : $0 } }
    let fields = Goal.shape.changes(from: old, to: goal, Goal.synced)
    if !fields.isEmpty { try replica.write(.goal, id: goal.id, fields) }
    return goal
  }
}
