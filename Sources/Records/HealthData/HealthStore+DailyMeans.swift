import Core
import Foundation
import Storage

extension HealthStore {
  /// One local day's readings of a kind: their mean (a blood pressure's two numbers each), how
  /// many, and the sources that gave them.
  public struct DailyMean: Equatable, Sendable {
    public let day: LocalDate
    public let value: Double
    public let second: Double?
    public let readings: Int
    public let sources: [String]
  }

  /// The days from `from` to today with readings of `kind`, oldest first, from the kept days
  /// (`vitalDays`). Days before the first reading are not counted, nor kept as empty: an
  /// account without any costs one lookup.
  public func dailyMeans(_ kind: VitalKind, from: Date) throws -> [DailyMean] {
    guard
      let first = try db.scalar(
        String.self, "SELECT min(start) FROM health_sample WHERE account_id = ? AND type = ? AND start >= ?",
        account.id, kind.type, ISO8601.string(from: from)
      ).flatMap(ISO8601.date(from:))
    else { return [] }
    let days = try vitalDays(kind, from: LocalDate(first, in: calendar), through: LocalDate(now, in: calendar))
    return days.sorted { $0.key < $1.key }.map { day, readings in
      DailyMean(
        day: day, value: readings.value.average,
        second: readings.diastolic.count > 0 ? readings.diastolic.average : nil, readings: readings.value.count,
        sources: readings.sources)
    }
  }
}
