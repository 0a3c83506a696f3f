import Foundation
import Replication
import Storage

extension HealthTotals {
  /// Brings `health_counted` up to date with the samples and the ranking of sources.
  public func refresh() throws {
    // Reading first: a read that finds nothing to do takes no write lock (an import may hold it).
    guard try !isCurrent() else { return }
    try db.transaction { db in
      let replica = Replica(db: db, accountID: accountID, now: now)
      let state = try loadState()
      var ranking = Ranking(try sourceRows() + (state?.ranking ?? []))
      var pending = Set(try replica.changedDays(.healthSample))
      var longest = state?.longest ?? 0
      if state == nil || !ranking.keeps(state!.ranking) {
        // A new order counts every moment again.
        try db.execute("DELETE FROM health_counted WHERE account_id = ?", accountID)
        pending = try allDays()
        longest = 0
      }
      if pending.isEmpty, state != nil { return }
      // Reading many samples: mapped pages spare a system call and a copy per page.
      if pending.count > 31 { try db.execute("PRAGMA mmap_size = 1073741824") }
      // Windows of up to a month of days, oldest first; a sample that reaches past its window
      // adds the days it reaches (a rebuild only knows where samples start).
      while let first = pending.min() {
        let last = pending.filter { $0 < first + 31 }.max()!
        for measure in Measure.allCases {
          let read = try samples(measure, from: first, through: last, longest: longest)
          for name in read.sources where ranking.rank[name] == nil {
            ranking.add(HealthSource(name: name, kind: HealthSource.Kind(device: nil, name: name)))
          }
          let names = ranking.order.map(\.name)
          let ranks = read.sources.map { ranking.rank[$0]! }
          var input: [CumulativeCount.Sample] = []
          input.reserveCapacity(read.rows.count)
          var reach = last
          for row in read.rows {
            input.append(.init(rank: ranks[row.source], start: row.start, end: row.end, value: row.value))
            longest = max(longest, row.end - row.start)
            reach = max(reach, (max(row.end, row.start + 1) - 1) / CumulativeCount.day)
          }
          if reach > last { pending.formUnion((last + 1)...reach) }
          try db.execute(
            "DELETE FROM health_counted WHERE account_id = ? AND type = ? AND day BETWEEN ? AND ?", accountID,
            measure.rawValue, first, last)
          for (key, quarters) in CumulativeCount.count(input, days: first...last) {
            try db.execute(
              "INSERT INTO health_counted (account_id, type, day, source, quarters) VALUES (?, ?, ?, ?, ?)",
              accountID, measure.rawValue, key.day, names[key.rank], DatabaseValue.blob(Self.encode(quarters)))
          }
        }
        pending.subtract(first...last)
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

  struct Row {
    /// An index into the sources read.
    let source: Int
    let start: Int64
    let end: Int64
    let value: Double
  }

  /// The samples of `measure` that may reach into UTC days `first...last`, in order of start.
  /// Read by column position and source names compared as bytes: a rebuild reads millions.
  private func samples(_ measure: Measure, from first: Int64, through last: Int64, longest: Int64) throws
    -> (sources: [String], rows: [Row])
  {
    let lower = Date(timeIntervalSince1970: Double(first * CumulativeCount.day - longest - 1000) / 1000)
    let upper = Date(timeIntervalSince1970: Double((last + 1) * CumulativeCount.day) / 1000)
    var sources: [String] = []
    var bytes: [[UInt8]] = []
    var rows: [Row] = []
    var current = -1
    try db.forEachRow(
      """
      SELECT source, start, "end", value FROM health_sample
      WHERE account_id = ? AND type = ? AND start >= ? AND start < ? ORDER BY start
      """, accountID, measure.type, ISO8601.string(from: lower), ISO8601.string(from: upper)
    ) { row in
      let value: Double
      switch row[3] {
      case .integer(let i): value = Double(i)
      case .real(let r): value = r
      default: return
      }
      guard let start = row.withUTF8(1, { $0.flatMap(ISO8601.milliseconds(utf8:)) }) else { return }
      let end = row.withUTF8(2, { $0.flatMap(ISO8601.milliseconds(utf8:)) }) ?? start
      row.withUTF8(0) { name in
        let name = name ?? UnsafeBufferPointer(start: nil, count: 0)
        if current >= 0, bytes[current].elementsEqual(name) { return }
        if let known = bytes.firstIndex(where: { $0.elementsEqual(name) }) {
          current = known
        } else {
          bytes.append(Array(name))
          sources.append(String(decoding: name, as: UTF8.self))
          current = bytes.count - 1
        }
      }
      rows.append(Row(source: current, start: start, end: end, value: value))
    }
    return (sources, rows)
  }

  static func milliseconds(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { ISO8601.milliseconds(utf8: $0) }
  }

  // MARK: Sources and state

  func sourceRows() throws -> [HealthSource] {
    try db.query("SELECT name, kind, preferred FROM health_source WHERE account_id = ?", accountID) { row in
      HealthSource(
        name: try row.get("name"), kind: HealthSource.Kind(rawValue: try row.get("kind")) ?? .other,
        preferred: try row.get("preferred"))
    }
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
