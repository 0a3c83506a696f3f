import Foundation

/// A daily target for steps or a distance.
public struct Goal: Equatable, Sendable {
  public enum Kind: String, CaseIterable, Sendable {
    case steps
    case walkingDistance = "walking-distance"
    case runningDistance = "running-distance"

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

  public let id: String
  public var kind: Kind
  /// Steps, or metres.
  public var target: Double
  public var title: String?
  public var description: String?
  /// The catalogue's reward, as its JSON text.
  public var reward: String?

  public struct Progress: Equatable, Sendable {
    public let goal: Goal
    public let value: Double
    /// value / target × 100, unrounded; over 100 when the target is beaten.
    public var percent: Double { value / goal.target * 100 }
  }
}
