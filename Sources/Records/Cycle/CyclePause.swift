import Core
import Foundation

/// A stretch in which cycles are not predicted and do not count: a pregnancy, breastfeeding,
/// hormonal contraception. An open pause (no end) lasts until it is given one.
public struct CyclePause: Equatable, Sendable {
  public enum Reason: String, CaseIterable, Sendable { case pregnancy, breastfeeding, contraception, other }

  public var id: String
  public var from: LocalDate
  public var to: LocalDate?
  public var reason: Reason

  public init(id: String = UUID().uuidString.lowercased(), from: LocalDate, to: LocalDate?, reason: Reason) {
    self.id = id
    self.from = from
    self.to = to
    self.reason = reason
  }

  public func contains(_ day: LocalDate) -> Bool { from <= day && day <= (to ?? .distantFuture) }

  /// Whether the pause and the days `range` share a day.
  public func overlaps(_ range: ClosedRange<LocalDate>) -> Bool {
    (from...(to ?? .distantFuture)).overlaps(range)
  }
}

extension LocalDate {
  /// A day later than any a person logs: the end of what has none yet.
  public static let distantFuture = LocalDate(year: 9999, month: 12, day: 31)!
}
