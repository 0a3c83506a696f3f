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

  /// Completed cycles the lengths were taken from (0 when the defaults were used).
  public let basedOnCycles: Int
  public let meanCycle: Int
  /// Sample standard deviation of the cycles used; nil with the defaults.
  public let sd: Double?
  public let periodLength: Int
  public let confidence: Confidence
  public let next: [Next]

  public static let defaultCycle = 28
  public static let defaultPeriod = 5
  /// Cycles longer than this are a gap in the log (or a pregnancy), not a cycle.
  public static let longestCycle = 99
  public static let cyclesUsed = 12
  public static let note = "A prediction, not contraception: do not rely on it to prevent pregnancy."

  /// Predicts `count` periods from `periods` (any order), starting with the first one that is
  /// not entirely behind `today`.
  public static func predict(periods: [Period], today: LocalDate, count: Int) throws -> CyclePrediction {
    let sorted = periods.sorted { $0.start < $1.start }
    guard let last = sorted.last else { throw CycleError.noPeriods }
    let starts = sorted.map(\.start)
    let cycles = zip(starts, starts.dropFirst()).map { $0.days(to: $1) }.filter { $0 <= longestCycle }.suffix(
      cyclesUsed)
    let lengths = sorted.compactMap(\.length)
    let periodLength =
      lengths.isEmpty ? defaultPeriod : Int((Double(lengths.reduce(0, +)) / Double(lengths.count)).rounded())

    let confident = cycles.count >= 3
    let mean = confident ? Int((Double(cycles.reduce(0, +)) / Double(cycles.count)).rounded()) : defaultCycle
    let sd = confident ? standardDeviation(Array(cycles)) : nil
    let spread = (sd ?? .infinity) < 1.5 ? 1 : 2

    var next: [Next] = []
    var k = 1
    while next.count < count {
      let start = last.start.adding(days: mean * k)
      k += 1
      // A predicted period whose whole range is over is late, not next; skip it.
      if start.adding(days: spread) < today, start.adding(days: periodLength - 1) < today { continue }
      let ovulation = start.adding(days: -14)
      next.append(
        Next(
          start: start, startRange: start.adding(days: -spread)...start.adding(days: spread),
          end: start.adding(days: periodLength - 1), ovulation: ovulation,
          fertileWindow: ovulation.adding(days: -5)...ovulation.adding(days: 1)))
    }
    return CyclePrediction(
      basedOnCycles: confident ? cycles.count : 0, meanCycle: mean, sd: sd, periodLength: periodLength,
      confidence: confident ? .high : .low, next: next)
  }

  static func standardDeviation(_ values: [Int]) -> Double {
    guard values.count > 1 else { return 0 }
    let mean = Double(values.reduce(0, +)) / Double(values.count)
    let squares = values.map { (Double($0) - mean) * (Double($0) - mean) }.reduce(0, +)
    return (squares / Double(values.count - 1)).squareRoot()
  }
}
