import Core
import Foundation

/// A logged period: its first day and, once it is over, its last day.
public struct Period: Equatable, Sendable {
  public var id: String
  public var start: LocalDate
  public var end: LocalDate?
  /// The cycle that starts with this period is left out of the statistics (`vital cycle exclude`).
  public var excluded: Bool

  public init(id: String = UUID().uuidString.lowercased(), start: LocalDate, end: LocalDate?, excluded: Bool = false) {
    self.id = id
    self.start = start
    self.end = end
    self.excluded = excluded
  }

  /// Days from the first to the last, both counted; nil while ongoing.
  public var length: Int? { end.map { start.days(to: $0) + 1 } }

  /// Whether it may still be going on: begun, and without an end or ending today or yesterday
  /// (as a day of flow noted leaves it), so that its length is not yet known.
  public func underWay(today: LocalDate) -> Bool {
    start <= today && (end.map { $0 >= today.adding(days: -1) } ?? true)
  }

  /// The days it covers, up to `today` while ongoing.
  public func days(today: LocalDate) -> ClosedRange<LocalDate> {
    start...max(start, end ?? today)
  }
}

extension LocalDate {
  /// Whole days from `self` to `other`, counted on the calendar alone.
  public func days(to other: LocalDate) -> Int { other.ordinal - ordinal }
}
