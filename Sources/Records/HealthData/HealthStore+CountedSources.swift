import Core
import Foundation
import Storage

extension HealthStore {
  /// A source in the ranking that totals count by, with the days it counted something.
  public struct CountedSource: Equatable, Sendable {
    public let source: HealthSource
    /// 1 is counted first.
    public let rank: Int
    /// UTC days on which it counted steps, distance, energy or exercise.
    public let days: Int
    public let first: LocalDate?
    public let last: LocalDate?
  }

  /// The sources in the order their counts win, read from the counted day totals (thousands of
  /// rows) rather than the samples (millions): what a page that ranks them needs, at once.
  /// Sources that counted nothing (a heart-rate strap) are left out; `sources()` has them.
  public func countedSources() throws -> [CountedSource] {
    let totals = HealthTotals(db: db, accountID: account.id, now: now)
    try totals.refresh()
    var days: [String: (count: Int, first: Int, last: Int)] = [:]
    try db.forEachRow(
      "SELECT source, count(DISTINCT day), min(day), max(day) FROM health_counted WHERE account_id = ? GROUP BY source",
      account.id
    ) { row in
      days[try row.get(0, as: String.self)] = (try row.get(1), try row.get(2), try row.get(3))
    }
    let ranking = Ranking(
      try totals.sourceRows() + days.keys.sorted().map { HealthSource(name: $0, kind: .init(device: nil, name: $0)) })
    return ranking.order.filter { days[$0.name] != nil }.enumerated().map { rank, source in
      let d = days[source.name]!
      return CountedSource(
        source: source, rank: rank + 1, days: d.count, first: LocalDate(ordinal: d.first),
        last: LocalDate(ordinal: d.last))
    }
  }
}
