import Foundation
import Replication
import Storage

extension HealthTotals {
  /// Brings `health_counted` up to date with the samples and the ranking of sources.
  public func refresh() throws {
    // Reading first: a read that finds nothing to do takes no write lock (an import may hold it).
    guard try !isCurrent() else { return }
    // Other connections may help read only what is committed: not inside a caller's transaction.
    let path = db.isInTransaction ? ":memory:" : db.path
    try db.transaction { db in
      let replica = Replica(db: db, accountID: accountID, now: now)
      let state = try loadState()
      var ranking = Ranking(try sourceRows() + (state?.ranking ?? []))
      let changed = Set(try replica.changedDays(.healthSample))
      // The other cache built from samples hears of the same days, before they are cleared.
      try HealthStore.forgetVitalDays(db, accountID: accountID, utcDays: changed)
      var pending = changed
      var longest = state?.longest ?? 0
      let rebuild = state == nil || !ranking.keeps(state!.ranking)
      if rebuild {
        // A new order counts every moment again.
        try db.execute("DELETE FROM health_counted WHERE account_id = ?", accountID)
        pending = try allDays()
        longest = 0
      }
      if pending.isEmpty, state != nil { return }
      // Windows of up to a month of days. A sample that reaches past its window's last day
      // makes a later day count again when this refresh counted that day without looking back
      // far enough to see the sample's start (a rebuild starts knowing no sample's length; the
      // next pass looks back as far as the longest seen), or when a rebuild has not counted it
      // at all. Other days keep their counts: a sample that changed had all its days noted.
      var seenFrom: [Int64: Int64] = [:]  // day: the earliest start its count read
      while !pending.isEmpty {
        let windows = Window.plan(pending)
        let lookback = longest
        pending.removeAll()
        var reaches: [(last: Int64, start: Int64, endDay: Int64)] = []
        try Window.count(windows, path: path, on: db, accountID: accountID, lookback: lookback, ranking: ranking) {
          result in
          for name in result.names where ranking.rank[name] == nil {
            ranking.add(HealthSource(name: name, kind: HealthSource.Kind(device: nil, name: name)))
          }
          try db.execute(
            "DELETE FROM health_counted WHERE account_id = ? AND day BETWEEN ? AND ?", accountID, result.first,
            result.last)
          for row in result.rows {
            try db.execute(
              "INSERT INTO health_counted (account_id, type, day, source, quarters) VALUES (?, ?, ?, ?, ?)",
              accountID, row.measure.rawValue, row.day, row.source, DatabaseValue.blob(row.quarters))
          }
          longest = max(longest, result.longest)
          for day in result.first...result.last { seenFrom[day] = result.first * CumulativeCount.day - lookback }
          reaches += result.reaches.map { (result.last, $0.start, $0.endDay) }
        }
        for reach in reaches {
          for day in (reach.last + 1)...reach.endDay {
            let missed = seenFrom[day].map { reach.start < $0 } ?? rebuild
            if missed { pending.insert(day) }
          }
        }
      }
      try replica.clearChangedDays(.healthSample)
      try saveState(ranking.order, longest: longest)
    }
  }

  private func isCurrent() throws -> Bool {
    guard let state = try loadState() else { return false }
    let changed = try db.scalar(
      Int.self, "SELECT EXISTS (SELECT 1 FROM replica_changed_day WHERE account_id = ? AND dataset = ?)", accountID,
      Dataset.healthSample.name)
    let rows = try sourceRows()
    return changed == 0 && Ranking(rows + state.ranking).keeps(state.ranking)
  }

  /// Every UTC day from the first sample of a cumulative type to the last one's start.
  private func allDays() throws -> Set<Int64> {
    var lo: Int64?
    var hi: Int64?
    for measure in Measure.allCases {
      let bounds = try db.queryFirst(
        "SELECT min(start), max(start) FROM health_sample WHERE account_id = ? AND type = ?", accountID, measure.type
      ) { row in (row[0], row[1]) }
      for value in [bounds?.0, bounds?.1].compactMap({ $0 }) {
        guard case .text(let text) = value, let ms = Self.milliseconds(text) else { continue }
        let day = ms / CumulativeCount.day
        lo = min(lo ?? day, day)
        hi = max(hi ?? day, day)
      }
    }
    guard let lo, let hi else { return [] }
    return Set(lo...hi)
  }

  static func milliseconds(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { ISO8601.milliseconds(utf8: $0) }
  }

  // MARK: Sources and state

  func sourceRows() throws -> [HealthSource] {
    try db.query(
      "SELECT \(HealthStore.sources.list()) FROM health_source WHERE account_id = ?", accountID,
      row: HealthSource.shape.record)
  }

  private func loadState() throws -> (ranking: [HealthSource], longest: Int64)? {
    try db.queryFirst(
      "SELECT ranking, longest_ms FROM health_counted_state WHERE account_id = ?", accountID
    ) { row in
      let text: String = try row.get("ranking")
      let pairs = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String]]) ?? []
      let ranking = pairs.compactMap { pair in
        pair.count == 2 ? HealthSource(name: pair[0], kind: HealthSource.Kind(rawValue: pair[1]) ?? .other) : nil
      }
      return (ranking, try row.get("longest_ms"))
    }
  }

  private func saveState(_ ranking: [HealthSource], longest: Int64) throws {
    let data = try JSONSerialization.data(withJSONObject: ranking.map { [$0.name, $0.kind.rawValue] })
    try db.execute(
      """
      INSERT INTO health_counted_state (account_id, ranking, longest_ms) VALUES (?, ?, ?)
      ON CONFLICT (account_id) DO UPDATE SET ranking = excluded.ranking, longest_ms = excluded.longest_ms
      """, accountID, String(decoding: data, as: UTF8.self), longest)
  }
}

/// Sources in counting order: the rows of `health_source`, and names met only in samples (a
/// device that synced samples but not sources) with the kind their name suggests.
struct Ranking {
  private(set) var order: [HealthSource] = []
  private(set) var rank: [String: Int] = [:]

  init(_ sources: [HealthSource]) {
    var seen = Set<String>()
    order = HealthSource.ranked(sources.filter { seen.insert($0.name).inserted })
    rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1.name, $0) })
  }

  mutating func add(_ source: HealthSource) {
    self = Ranking(order + [source])
  }

  /// Whether `previous` is still in the same order (sources may have been added among them):
  /// then what was counted with it stands.
  func keeps(_ previous: [HealthSource]) -> Bool {
    let names = Set(previous.map(\.name))
    return order.filter { names.contains($0.name) }.map { [$0.name, $0.kind.rawValue] }
      == previous.map { [$0.name, $0.kind.rawValue] }
  }
}
