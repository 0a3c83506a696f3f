import Foundation

/// A workout's activity as people say it: `HKWorkoutActivityTypeTraditionalStrengthTraining`
/// is `traditional-strength-training`, and either is taken where a type is asked for.
public enum WorkoutActivity {
  static let prefix = "HKWorkoutActivityType"

  public static func name(_ type: String) -> String {
    guard type.hasPrefix(prefix), type.count > prefix.count else { return type }
    var name = ""
    for c in type.dropFirst(prefix.count) {
      if c.isUppercase, !name.isEmpty { name += "-" }
      name += c.lowercased()
    }
    return name
  }

  /// The stored type for what a person typed: `running`, `Running`, `HKWorkoutActivityTypeRunning`.
  public static func type(_ typed: String) -> String {
    if typed.hasPrefix(prefix) { return typed }
    let words = typed.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " })
    return prefix + words.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
  }
}
