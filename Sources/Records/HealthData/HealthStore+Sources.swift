import Foundation
import Replication
import Storage

extension HealthStore {
  /// A source as `vital health sources` lists it.
  public struct SourceSummary: Equatable, Sendable {
    public let source: HealthSource
    /// 1 is counted first.
    public let rank: Int
    public let samples: Int
    public let first: Date?
    public let last: Date?
  }

  public enum SourceFailure: Error, Equatable, CustomStringConvertible {
    case unknownSource(String, known: [String])
    case preferredTwice(String)

    public var description: String {
      switch self {
      case .unknownSource(let name, let known):
        guard !known.isEmpty else {
          return "no source named '\(name.prefix(80))': there are none yet; import an export first"
        }
        return "no source named '\(name.prefix(80))'; the sources are "
          + known.map { "'\($0.prefix(80))'" }.joined(separator: ", ")
      case .preferredTwice(let name): return "'\(name.prefix(80))' is named twice; name each source once"
      }
    }
  }

  /// Every source with its sample count, first and last sample, and rank. Reads every sample
  /// (a few seconds for millions).
  public func sources() throws -> [SourceSummary] {
    try sources(stats: sampleStats())
  }

  typealias Stats = [String: (count: Int, first: Date?, last: Date?)]

  private func sampleStats() throws -> Stats {
    var stats: Stats = [:]
    try db.forEachRow(
      "SELECT source, count(*), min(start), max(start) FROM health_sample WHERE account_id = ? GROUP BY source",
      account.id
    ) { row in
      let name = try row.get(0, as: String?.self) ?? ""
      stats[name] = (
        try row.get(1), try row.get(2, as: String?.self).flatMap(ISO8601.date(from:)),
        try row.get(3, as: String?.self).flatMap(ISO8601.date(from:))
      )
    }
    return stats
  }

  private func sources(stats: Stats) throws -> [SourceSummary] {
    let totals = HealthTotals(db: db, accountID: account.id, now: now)
    let ranking = Ranking(
      try totals.sourceRows() + stats.keys.map { HealthSource(name: $0, kind: .init(device: nil, name: $0)) })
    return ranking.order.enumerated().map { rank, source in
      let s = stats[source.name]
      return SourceSummary(source: source, rank: rank + 1, samples: s?.count ?? 0, first: s?.first, last: s?.last)
    }
  }

  /// Puts `names` first, in that order, and every other source back to its rank by kind (no
  /// names: all of them). Stored and synced; the totals are counted again before it returns.
  @discardableResult
  public func prefer(_ names: [String]) throws -> [SourceSummary] {
    let stats = try sampleStats()
    let known = try sources(stats: stats)
    var seen = Set<String>()
    for name in names {
      guard known.contains(where: { $0.source.name == name }) else {
        throw SourceFailure.unknownSource(name, known: known.map(\.source.name))
      }
      guard seen.insert(name).inserted else { throw SourceFailure.preferredTwice(name) }
    }
    let totals = HealthTotals(db: db, accountID: account.id, now: now)
    let rows = Set(try totals.sourceRows().map(\.name))
    let replica = Replica(db: db, accountID: account.id, now: now)
    try db.transaction { _ in
      // Every source is written, so the latest preference wins whole on every device.
      for summary in known {
        var source = summary.source
        source.preferred = names.firstIndex(of: source.name).map { $0 + 1 }
        let fields = HealthSource.shape.fields(
          source, of: rows.contains(source.name) ? [\.preferred] : [\.name, \.kind, \.preferred])
        try replica.write(.healthSource, id: source.id, fields)
      }
    }
    try totals.refresh()
    return try sources(stats: stats)
  }

  /// Records the sources an import or a hand-added sample came from: new ones, and kinds that
  /// a device attribute now tells (a source first seen by name only).
  package static func note(_ seen: [String: (kind: HealthSource.Kind, fromDevice: Bool)], replica: Replica) throws {
    guard !seen.isEmpty else { return }
    let rows = Dictionary(
      try HealthTotals(db: replica.db, accountID: replica.accountID, now: replica.now).sourceRows().map {
        ($0.name, $0)
      }, uniquingKeysWith: { a, _ in a })
    for (name, seen) in seen.sorted(by: { $0.key < $1.key }) {
      let source = HealthSource(name: name, kind: seen.kind)
      if let row = rows[name] {
        guard seen.fromDevice, row.kind != seen.kind else { continue }
        try replica.write(.healthSource, id: source.id, HealthSource.shape.fields(source, of: [\.kind]))
      } else {
        try replica.write(
          .healthSource, id: source.id, HealthSource.shape.fields(source, of: [\.name, \.kind, \.preferred]))
      }
    }
  }

  /// Gives the sources of samples already stored a row each (migration 0011): their kind as
  /// their name suggests, since earlier versions did not keep the device.
  public static func noteSourcesOfStoredSamples(_ db: Database) throws {
    let pairs = try db.query("SELECT DISTINCT account_id, source FROM health_sample WHERE source IS NOT NULL") {
      (try $0.get(0, as: String.self), try $0.get(1, as: String.self))
    }
    for (account, names) in Dictionary(grouping: pairs, by: \.0) {
      let seen = Dictionary(names.map { ($0.1, (HealthSource.Kind(device: nil, name: $0.1), false)) }) { a, _ in a }
      try note(seen, replica: Replica(db: db, accountID: account, now: Date()))
    }
  }
}
