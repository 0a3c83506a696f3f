import Core
import Foundation

/// How good the predictions have been: for every logged period from the fourth on, what
/// `CyclePrediction.predict` says from the periods before it alone, on the day after the period
/// before it ended, against the day it really started. Pure.
public struct CycleBacktest: Equatable, Sendable {
  public struct Row: Equatable, Sendable {
    /// The day the period really started.
    public let start: LocalDate
    /// The day the prediction is made as of: the day after the previous period's last day.
    public let asOf: LocalDate
    public let predicted: LocalDate?
    public let range: ClosedRange<LocalDate>?
    /// Why the row does not count: the cycle before it was left out (or paused).
    public let leftOut: CyclePrediction.LeftOut.Reason?

    /// Days the period came after the predicted start (negative: earlier).
    public var errorDays: Int? { predicted.map { $0.days(to: start) } }
    public var inRange: Bool? { range.map { $0.contains(start) } }
    public var counts: Bool { predicted != nil && leftOut == nil }
  }

  public let rows: [Row]

  public var counted: [Row] { rows.filter(\.counts) }

  /// Mean of |error| over the rows that count; nil when none does.
  public var meanAbsoluteError: Double? {
    let errors = counted.compactMap(\.errorDays)
    guard !errors.isEmpty else { return nil }
    return Double(errors.map(abs).reduce(0, +)) / Double(errors.count)
  }

  /// Share of the rows that count whose start fell in the predicted range.
  public var inRangeShare: Double? {
    let rows = counted
    guard !rows.isEmpty else { return nil }
    return Double(rows.filter { $0.inRange == true }.count) / Double(rows.count)
  }

  /// The first period predicted is the fourth: three periods make the first two cycles.
  public static let firstPredicted = 3

  public static func run(periods: [Period], pauses: [CyclePause]) throws -> CycleBacktest {
    let sorted = periods.sorted { $0.start < $1.start }
    guard sorted.count > firstPredicted else { throw CycleError.tooFewPeriods }
    var rows: [Row] = []
    for k in firstPredicted..<sorted.count {
      let earlier = Array(sorted[..<k])
      let previous = earlier.last!
      let asOf = (previous.end ?? previous.start).adding(days: 1)
      // Only the pauses begun by then were known then.
      let known = pauses.filter { $0.from <= asOf }
      let prediction = try CyclePrediction.predict(periods: earlier, pauses: known, today: asOf, count: 1)
      let next = prediction.next.first
      let leftOut = CyclePrediction.LeftOut.reason(previous, nextStart: sorted[k].start, pauses: pauses)
      rows.append(
        Row(start: sorted[k].start, asOf: asOf, predicted: next?.start, range: next?.startRange, leftOut: leftOut))
    }
    return CycleBacktest(rows: rows)
  }
}
