import Core
import Foundation

/// A daily target for steps or a distance.
public struct Goal: Equatable, Sendable {
  public enum Kind: String, CaseIterable, Sendable {
    case steps
    case walkingDistance = "walking-distance"
    case runningDistance = "running-distance"

    /// The name commands and JSON use: the quantity counted (`distance` is walking and running
    /// distance, as `health trend` names it). Stored as before, so older devices still read it.
    public var name: String {
      switch self {
      case .steps: return "steps"
      case .walkingDistance: return "distance"
      case .runningDistance: return "running-distance"
      }
    }

    /// A kind by its name, its stored value, or the names used before (`walking-distance`).
    public init?(name: String) {
      switch name.trimmingCharacters(in: .whitespaces).lowercased() {
      case "steps", "step": self = .steps
      case "distance", "walking-distance", "distance-m", "walking-running-distance": self = .walkingDistance
      case "running-distance", "running": self = .runningDistance
      default: return nil
      }
    }

    /// The quantity whose units a target is typed and printed in.
    public var measure: HealthTotals.Measure { self == .steps ? .steps : .distance }

    /// The goals app's catalogue names.
    init?(catalogue: String) {
      switch catalogue {
      case "step", "steps": self = .steps
      case "walking_distance": self = .walkingDistance
      case "running_distance": self = .runningDistance
      default: return nil
      }
    }
  }

  public var id: String
  public var kind: Kind
  /// Steps, or metres.
  public var target: Double
  public var title: String?
  public var description: String?
  /// The catalogue's reward, as its JSON text.
  public var reward: String?

  public struct Progress: Equatable, Sendable {
    public let goal: Goal
    /// The day's total; nil when no source had a sample of the goal's quantity that day (no
    /// data is not 0: an export that ends yesterday says nothing about today).
    public let value: Double?
    /// The last day with a sample of the goal's quantity, that day or before.
    public var lastData: LocalDate?

    public init(goal: Goal, value: Double?, lastData: LocalDate? = nil) {
      self.goal = goal
      self.value = value
      self.lastData = lastData
    }

    /// value / target × 100, unrounded; over 100 when the target is beaten; nil without data.
    public var percent: Double? { value.map { $0 / goal.target * 100 } }
  }
}
