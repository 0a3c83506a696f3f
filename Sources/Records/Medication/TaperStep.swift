import Foundation

/// One step of a taper: a dose taken for a number of days, e.g. `20 mg:7d`.
public struct TaperStep: Equatable, Sendable, CustomStringConvertible {
  public let dose: String
  public let days: Int

  public init(dose: String, days: Int) {
    self.dose = dose
    self.days = days
  }

  public var description: String { "\(dose):\(days)d" }

  /// `20 mg:7d,10 mg:7d,5 mg:5d`: each step a dose and its length in days (`d`) or weeks (`w`).
  /// A dose may not hold `:` or `,`; at most 100 steps of at most 3660 days.
  public static func parse(_ text: String) throws -> [TaperStep] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard !parts.isEmpty, parts.count <= 100 else { throw MedicationError.badSteps(text) }
    return try parts.map { part in
      let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
      guard pieces.count == 2 else { throw MedicationError.badSteps(String(part)) }
      let dose = pieces[0].trimmingCharacters(in: .whitespaces)
      var length = pieces[1].trimmingCharacters(in: .whitespaces).lowercased()
      let unit = length.popLast()
      guard !dose.isEmpty, let count = Int(length), count > 0,
        let factor = unit == "d" ? 1 : unit == "w" ? 7 : nil, count * factor <= 3660
      else { throw MedicationError.badSteps(String(part)) }
      return TaperStep(dose: dose, days: count * factor)
    }
  }

  public static func text(_ steps: [TaperStep]) -> String { steps.map(\.description).joined(separator: ",") }
}
