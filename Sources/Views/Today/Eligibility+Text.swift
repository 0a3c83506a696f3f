import Core
import Foundation
import Records

/// Whether one may donate, in words: what `vital donor eligibility` prints and the donations
/// page says.
extension Eligibility {
  /// The verdict in words: a headline, what to set when something is missing, the day the
  /// donations alone allow, and the reasons.
  public struct Explanation: Sendable, Equatable {
    public var headline: String
    /// The `vital profile set` that lets Vital tell.
    public var fix: String?
    public var byDonations: String?
    public var reasons: [String]
  }

  public func explained(kind: DonationKind, _ human: HumanText) -> Explanation {
    guard missing.isEmpty else {
      return Explanation(
        headline:
          "Vital cannot say yet whether you may donate: your \(Self.list(missing)) \(missing.count == 1 ? "is" : "are") not known.",
        fix: "Set \(missing.count == 1 ? "it" : "them"): \(Self.command(missing))",
        byDonations: nextEligible.map { "By your donations alone: from \(human.day($0))." }, reasons: reasons)
    }
    let headline =
      eligible
      ? "You may donate \(kind.label) today."
      : nextEligible.map { "You may donate \(kind.label) from \(human.day($0))." }
        ?? "No date can be given for \(kind.label):"
    return Explanation(headline: headline, fix: nil, byDonations: nil, reasons: reasons)
  }

  /// `region, sex and weight`.
  static func list(_ items: [String]) -> String {
    items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
  }

  /// The `vital profile set` that fills in what is missing.
  static func command(_ missing: [String]) -> String {
    let flags = [
      ("region", "--region de|us|uk"), ("sex", "--sex female|male"), ("birth date", "--birth-date YYYY-MM-DD"),
      ("weight", "--weight-kg N"),
    ].filter { missing.contains($0.0) }.map(\.1)
    return "vital profile set " + flags.joined(separator: " ")
  }
}
