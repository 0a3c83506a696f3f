import Core
import Foundation

/// Next periods, ovulation and fertile windows predicted from logged period starts. Pure: the
/// same periods and day always give the same answer.
public struct CyclePrediction: Equatable, Sendable {
  public struct Next: Equatable, Sendable {
    public let start: LocalDate
    public let startRange: ClosedRange<LocalDate>
    public let end: LocalDate
    public let ovulation: LocalDate
    public let fertileWindow: ClosedRange<LocalDate>
  }

  public enum Confidence: String, Sendable { case low, high }

  /// A cycle the statistics did not use, named by the first day of its period.
  public struct LeftOut: Equatable, Sendable {
    public enum Reason: String, Sendable {
      /// Left out by hand (`vital cycle exclude`).
      case excluded
      /// It overlaps a pause (pregnancy, contraception, ...).
      case paused
      /// Longer than `longestCycle`: a gap in the log more likely than a cycle.
      case tooLong = "too-long"
    }

    public let start: LocalDate
    public let days: Int
    public let reason: Reason

    /// Why the cycle from `period` to `nextStart` stays out of the statistics, if it does.
    static func reason(_ period: Period, nextStart: LocalDate, pauses: [CyclePause]) -> Reason? {
      if period.excluded { return .excluded }
      if pauses.contains(where: { $0.overlaps(period.start...nextStart.adding(days: -1)) }) { return .paused }
      return period.start.days(to: nextStart) > longestCycle ? .tooLong : nil
    }
  }

  /// Completed cycles the lengths were taken from (0 when the defaults were used).
  public let basedOnCycles: Int
  public let meanCycle: Int
  /// Sample standard deviation of the cycles used; nil with the defaults.
  public let sd: Double?
  public let periodLength: Int
  public let confidence: Confidence
  public let next: [Next]
  /// Completed cycles left out of the statistics, oldest first.
  public let leftOut: [LeftOut]
  /// The pause today falls in: while there is one, nothing is predicted.
  public let paused: CyclePause?
  /// The period expected after the last one, when its whole range is past and none was logged
  /// since: said as late, not skipped for the one a cycle later.
  public var late: Late?

  public struct Late: Equatable, Sendable {
    public let expected: LocalDate
    /// Days from the expected start to today.
    public let days: Int
  }

  public static let defaultCycle = 28
  public static let defaultPeriod = 5
  /// Cycles longer than this are a gap in the log (or a pregnancy), not a cycle.
  public static let longestCycle = 99
  public static let cyclesUsed = 12
  public static let note = "A prediction, not contraception: do not rely on it to prevent pregnancy."
  public static let helpNote =
    "Predictions and the sympto-thermal evaluation describe your records; they are not contraception advice. Do not rely on them to prevent pregnancy."

  /// Predicts `count` periods from `periods` (any order), starting with the first one that is
  /// not entirely behind `today`. Cycles excluded by hand or overlapping a pause are left out of
  /// the statistics; while today is in a pause nothing is predicted, and after a pause with no
  /// period since, cycles count from the day after it.
  public static func predict(
    periods: [Period], pauses: [CyclePause] = [], today: LocalDate, count: Int
  ) throws -> CyclePrediction {
    let sorted = periods.sorted { $0.start < $1.start }
    guard let last = sorted.last else { throw CycleError.noPeriods }
    var used: [Int] = []
    var leftOut: [LeftOut] = []
    for (period, next) in zip(sorted, sorted.dropFirst()) {
      let days = period.start.days(to: next.start)
      if let reason = LeftOut.reason(period, nextStart: next.start, pauses: pauses) {
        leftOut.append(LeftOut(start: period.start, days: days, reason: reason))
      } else {
        used.append(days)
      }
    }
    let cycles = used.suffix(cyclesUsed)
    // A period under way (ending today or yesterday, as a day of flow noted leaves it) may
    // still grow: its length so far would shorten the prediction.
    let underWay = last.underWay(today: today)
    let lengths = sorted.filter { p in
      !p.excluded && !pauses.contains { $0.contains(p.start) } && !(underWay && p.id == last.id)
    }.compactMap(\.length)
    let periodLength =
      lengths.isEmpty ? defaultPeriod : Int((Double(lengths.reduce(0, +)) / Double(lengths.count)).rounded())

    let confident = cycles.count >= 3
    let mean = confident ? Int((Double(cycles.reduce(0, +)) / Double(cycles.count)).rounded()) : defaultCycle
    let sd = confident ? standardDeviation(Array(cycles)) : nil
    let spread = (sd ?? .infinity) < 1.5 ? 1 : 2
    let paused = pauses.first { $0.contains(today) }

    // After a pause that ended with no period since, the next cycle counts from its end.
    let anchor = pauses.compactMap(\.to).filter { $0 >= last.start && $0 < today }.max().map { $0.adding(days: 1) }
    let base = anchor ?? last.start
    var next: [Next] = []
    var late: Late?
    let expected = base.adding(days: mean)
    if paused == nil, expected.adding(days: spread) < today, expected.days(to: today) <= longestCycle - mean {
      late = Late(expected: expected, days: expected.days(to: today))
    }
    var k = 1
    while paused == nil && next.count < count && k < 2000 {
      let start = base.adding(days: mean * k)
      k += 1
      // A predicted period whose whole range is over is late, not next; skip it.
      if start.adding(days: spread) < today, start.adding(days: periodLength - 1) < today { continue }
      // None inside a pause planned ahead.
      if pauses.contains(where: { $0.contains(start) }) { continue }
      let ovulation = start.adding(days: -14)
      next.append(
        Next(
          start: start, startRange: start.adding(days: -spread)...start.adding(days: spread),
          end: start.adding(days: periodLength - 1), ovulation: ovulation,
          fertileWindow: ovulation.adding(days: -5)...ovulation.adding(days: 1)))
    }
    return CyclePrediction(
      basedOnCycles: confident ? cycles.count : 0, meanCycle: mean, sd: sd, periodLength: periodLength,
      confidence: confident ? .high : .low, next: next, leftOut: leftOut, paused: paused, late: late)
  }

  static func standardDeviation(_ values: [Int]) -> Double {
    guard values.count > 1 else { return 0 }
    let mean = Double(values.reduce(0, +)) / Double(values.count)
    let squares = values.map { (Double($0) - mean) * (Double($0) - mean) }.reduce(0, +)
    return (squares / Double(values.count - 1)).squareRoot()
  }
}
