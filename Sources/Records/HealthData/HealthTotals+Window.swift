import Dispatch
import Foundation
import Storage
import Synchronization

extension HealthTotals {
  /// Up to a month of UTC days counted together: its samples read once per measure.
  struct Window: Sendable {
    let first: Int64
    let last: Int64

    func contains(_ day: Int64) -> Bool { (first...last).contains(day) }

    /// Windows covering `days`, oldest first, each at most 31 days from its first.
    static func plan(_ days: Set<Int64>) -> [Window] {
      var windows: [Window] = []
      for day in days.sorted() {
        if let open = windows.last, day < open.first + 31 {
          windows[windows.count - 1] = Window(first: open.first, last: day)
        } else {
          windows.append(Window(first: day, last: day))
        }
      }
      return windows
    }

    struct Counted: Sendable {
      let measure: Measure
      let day: Int64
      let source: String
      let quarters: Data
    }

    /// What a window counted: its rows, the source names it met, the longest sample, and the
    /// samples that reach past its last day (their start, their last day).
    struct Result: Sendable {
      let first: Int64
      let last: Int64
      var rows: [Counted] = []
      var names: [String] = []
      var longest: Int64 = 0
      var reaches: [(start: Int64, endDay: Int64)] = []
    }

    /// Counts `windows`; two at a time on connections of their own when there are several and
    /// the database is a file (a rebuild reads millions of samples), else one by one on `db`.
    static func count(
      _ windows: [Window], path: String, on db: Database, accountID: String, lookback: Int64, ranking: Ranking
    ) throws -> [Result] {
      let workers = min(2, ProcessInfo.processInfo.activeProcessorCount, windows.count)
      guard workers > 1, path != ":memory:" else {
        return try windows.map { try $0.count(db, accountID: accountID, lookback: lookback, ranking: ranking) }
      }
      let results = Mutex<[Int: Swift.Result<Result, any Error>]>([:])
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        do {
          var options = Database.Options()
          options.readOnly = true
          let connection = try Database(path: path, options: options)
          // An index read in order needs few pages at a time: keep the helpers small.
          try connection.execute("PRAGMA cache_size = -4096")
          for i in stride(from: worker, to: windows.count, by: workers) {
            let result = Swift.Result {
              try windows[i].count(connection, accountID: accountID, lookback: lookback, ranking: ranking)
            }
            results.withLock { $0[i] = result }
          }
        } catch {
          results.withLock { $0[-1 - worker] = .failure(error) }
        }
      }
      return try results.withLock { all in
        if let failed = all.first(where: { $0.key < 0 }) { _ = try failed.value.get() }
        return try windows.indices.map { try all[$0]!.get() }
      }
    }

    /// Counts every measure over this window's days.
    func count(_ db: Database, accountID: String, lookback: Int64, ranking: Ranking) throws -> Result {
      var ranking = ranking
      var result = Result(first: first, last: last)
      for measure in Measure.allCases {
        let read = try samples(db, accountID: accountID, measure, lookback: lookback)
        for name in read.sources where ranking.rank[name] == nil {
          ranking.add(HealthSource(name: name, kind: HealthSource.Kind(device: nil, name: name)))
          result.names.append(name)
        }
        let ranks = read.sources.map { ranking.rank[$0]! }
        var input: [CumulativeCount.Sample] = []
        input.reserveCapacity(read.rows.count)
        for row in read.rows {
          input.append(.init(rank: ranks[row.source], start: row.start, end: row.end, value: row.value))
          result.longest = max(result.longest, row.end - row.start)
          let endDay = (max(row.end, row.start + 1) - 1) / CumulativeCount.day
          if endDay > last { result.reaches.append((row.start, endDay)) }
        }
        let names = ranking.order.map(\.name)
        for (key, quarters) in CumulativeCount.count(input, days: first...last) {
          result.rows.append(
            Counted(measure: measure, day: key.day, source: names[key.rank], quarters: HealthTotals.encode(quarters)))
        }
      }
      return result
    }

    struct Row {
      /// An index into the sources read.
      let source: Int
      let start: Int64
      let end: Int64
      let value: Double
    }

    /// The samples of `measure` that may reach into this window, in order of start. Read by
    /// column position, source names compared as bytes: a rebuild reads millions.
    private func samples(_ db: Database, accountID: String, _ measure: Measure, lookback: Int64) throws
      -> (sources: [String], rows: [Row])
    {
      let lower = Date(timeIntervalSince1970: Double(first * CumulativeCount.day - lookback - 1000) / 1000)
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
        // A value no rule lets in (from an older Vital, or the file edited by hand) counts as nothing.
        guard value.isFinite, value >= 0, value <= HealthType.largestSample else { return }
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
  }
}
