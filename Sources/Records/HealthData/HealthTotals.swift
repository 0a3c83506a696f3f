import Core
import Foundation
import Replication
import Storage

/// Cumulative totals counted by `CumulativeCount`, kept per source and quarter hour in
/// `health_counted`. Every read first brings the table up to date: the UTC days `Replica`
/// noted as changed (an import, a sample added by hand, one synced from another device) are
/// counted again, and everything is when the ranking of sources changed. So a day's total costs
/// a few rows whatever the history, and a trend over years a few thousand.
public struct HealthTotals {
  let db: Database
  let accountID: String
  let now: Date

  public init(db: Database, accountID: String, now: Date) {
    self.db = db
    self.accountID = accountID
    self.now = now
  }

  /// The cumulative types, with the Apple Health identifier each counts.
  public enum Measure: String, CaseIterable, Sendable {
    case steps, distance, energy, exercise

    public var type: String {
      switch self {
      case .steps: return HealthType.steps
      case .distance: return HealthType.walkingRunningDistance
      case .energy: return HealthType.activeEnergy
      case .exercise: return HealthType.exerciseTime
      }
    }
  }

  /// What each source counted toward each measure on each local day of `days`.
  public func counted(
    _ measures: [Measure], days: ClosedRange<LocalDate>, in calendar: Calendar
  ) throws -> [LocalDate: [Measure: [String: Double]]] {
    try refresh()
    // Each local day's first quarter hour (since 1970); the next day's ends it.
    var starts: [(LocalDate, Int64)] = []
    var day = days.lowerBound
    while day <= days.upperBound.adding(days: 1) {
      let ms = Int64((day.start(in: calendar).timeIntervalSince1970 * 1000).rounded())
      starts.append((day, ms / CumulativeCount.quarter))
      day = day.adding(days: 1)
    }
    let quartersPerDay = Int64(CumulativeCount.quartersPerDay)
    let firstUTC = starts.first!.1 / quartersPerDay
    let lastUTC = (starts.last!.1 - 1) / quartersPerDay
    var result: [LocalDate: [Measure: [String: Double]]] = [:]
    for measure in measures {
      try db.forEachRow(
        """
        SELECT day, source, quarters FROM health_counted
        WHERE account_id = ? AND type = ? AND day BETWEEN ? AND ? ORDER BY day
        """, accountID, measure.rawValue, firstUTC, lastUTC
      ) { row in
        let utcDay: Int64 = try row.get("day")
        let source: String = try row.get("source")
        guard case .blob(let data) = row[2], data.count == CumulativeCount.quartersPerDay * 8 else { return }
        let quarters = Self.decode(data)
        // The local days this UTC day overlaps: at most two.
        let base = utcDay * quartersPerDay
        var k = max(0, starts.partitionIndex { $0.1 > base } - 1)
        while k < starts.count - 1, starts[k].1 < base + quartersPerDay {
          let lo = max(starts[k].1, base)
          let hi = min(starts[k + 1].1, base + quartersPerDay)
          if lo < hi {
            let sum = quarters[Int(lo - base)..<Int(hi - base)].reduce(0, +)
            result[starts[k].0, default: [:]][measure, default: [:]][source, default: 0] += sum
          }
          k += 1
        }
      }
    }
    return result
  }

  static func decode(_ data: Data) -> [Double] {
    data.withUnsafeBytes { raw in
      (0..<CumulativeCount.quartersPerDay).map {
        Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)))
      }
    }
  }

  static func encode(_ quarters: [Double]) -> Data {
    var data = Data(capacity: quarters.count * 8)
    for q in quarters { withUnsafeBytes(of: q.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    return data
  }
}

extension Array {
  /// The first index whose element satisfies `predicate`, for an array partitioned by it.
  fileprivate func partitionIndex(where predicate: (Element) -> Bool) -> Int {
    var (lo, hi) = (0, count)
    while lo < hi {
      let mid = (lo + hi) / 2
      if predicate(self[mid]) { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }
}
