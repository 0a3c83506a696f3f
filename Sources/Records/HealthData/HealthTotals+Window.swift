import Dispatch
import Foundation
import Storage
import Synchronization

extension HealthTotals {
  /// Up to ten UTC days counted together: its samples read once per measure. Ten, not a month:
  /// a window's samples are in memory while it is counted, two windows at a time, and a month
  /// of two sources' minutes took 30 MB.
  struct Window: Sendable {
    let first: Int64
    let last: Int64

    func contains(_ day: Int64) -> Bool { (first...last).contains(day) }

    static let days: Int64 = 10

    /// Windows covering `days`, oldest first, each at most `days` days from its first.
    static func plan(_ days: Set<Int64>) -> [Window] {
      var windows: [Window] = []
      for day in days.sorted() {
        if let open = windows.last, day < open.first + Self.days {
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

    /// Counts `windows` and hands each result to `each` on the calling thread, oldest first. Two
    /// at a time on connections of their own when there are several and the database is a file
    /// (a rebuild reads millions of samples), else one by one on `db`. A round's results are
    /// handed on before the next begins: years of windows are never all in memory at once.
    static func count(
      _ windows: [Window], path: String, on db: Database, accountID: String, lookback: Int64, ranking: Ranking,
      each: (Result) throws -> Void
    ) throws {
      let workers = min(2, ProcessInfo.processInfo.activeProcessorCount, windows.count)
      guard workers > 1, path != ":memory:" else {
        for window in windows {
          try each(try window.count(db, accountID: accountID, lookback: lookback, ranking: ranking))
        }
        return
      }
      for round in stride(from: 0, to: windows.count, by: workers) {
        let batch = Array(windows[round..<min(round + workers, windows.count)])
        let results = Mutex<[Int: Swift.Result<Result, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: batch.count) { i in
          let result = Swift.Result {
            var options = Database.Options()
            options.readOnly = true
            let connection = try Database(path: path, options: options)
            // An index read in order needs few pages at a time: keep the helpers small.
            try connection.execute("PRAGMA cache_size = -4096")
            return try batch[i].count(connection, accountID: accountID, lookback: lookback, ranking: ranking)
          }
          results.withLock { $0[i] = result }
        }
        for i in batch.indices { try each(try results.withLock { $0[i]! }.get()) }
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
      var sources = SourceNames()
      var rows: [Row] = []
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
        rows.append(Row(source: sources.index(row, 0), start: start, end: end, value: value))
      }
      return (sources.names, rows)
    }
  }
}
