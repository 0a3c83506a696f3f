/// The counting rule for cumulative types (steps, distance, energy, exercise), as the Health
/// app counts them: for every stretch of time only the highest-ranked source with a sample
/// covering it counts. A sample's value spreads evenly over its duration; an instant sample
/// counts at its instant unless a higher-ranked source covers that instant. Identical samples
/// of one source count once.
///
/// What counts is reported per quarter hour of UTC, per source: every zone's midnight (offsets
/// are whole quarter hours) falls on a quarter's boundary, so days in any zone are sums of them.
public enum CumulativeCount {
  /// A sample: `rank` 0 is the source counted first; times in milliseconds since 1970.
  public struct Sample: Hashable, Sendable {
    public let rank: Int
    public let start: Int64
    public let end: Int64
    public let value: Double

    public init(rank: Int, start: Int64, end: Int64, value: Double) {
      self.rank = rank
      self.start = start
      self.end = end
      self.value = value
    }

    var isInstant: Bool { end <= start }
  }

  public static let quarter: Int64 = 900_000
  public static let day: Int64 = 86_400_000
  public static let quartersPerDay = 96

  /// A UTC day (days since 1970) and a source's rank.
  public struct Key: Hashable, Sendable {
    public let day: Int64
    public let rank: Int
  }

  /// What each source counts in each quarter hour of the UTC days `days` (96 values per day):
  /// a source with samples on a day that all lie under better ones still gets its (zero) row.
  public static func count(_ samples: [Sample], days: ClosedRange<Int64>) -> [Key: [Double]] {
    var grid = Grid(days: days, ranks: (samples.map(\.rank).max() ?? -1) + 1)
    guard grid.ranks > 0 else { return [:] }
    // Times before 1970 are left out: the day and quarter arithmetic assumes none.
    var input = samples.filter { s in
      s.value.isFinite && s.start >= 0 && s.start < grid.to && (s.isInstant ? s.start >= grid.from : s.end > grid.from)
    }
    if !input.isSorted(by: { $0.start <= $1.start }) { input.sort { $0.start < $1.start } }
    let unique = deduplicated(input)
    for s in unique { grid.touch(s) }
    var sweep = Sweep(grid: grid)
    for s in unique {
      sweep.advance(to: s.start)
      if s.isInstant {
        // After every interval starting at the same time has opened: [start, end) covers start.
        sweep.pendingInstants.append(s)
      } else {
        sweep.open(s)
      }
    }
    sweep.advance(to: .max)
    return sweep.grid.rows()
  }

  /// Drops samples identical to one before them; `sorted` is in order of start.
  static func deduplicated(_ sorted: [Sample]) -> [Sample] {
    var out: [Sample] = []
    out.reserveCapacity(sorted.count)
    var runStart = 0
    for s in sorted {
      if let last = out.last, last.start != s.start { runStart = out.count }
      if !out[runStart...].contains(s) { out.append(s) }
    }
    return out
  }

  /// Quarter hours per UTC day and rank, in one flat array.
  struct Grid {
    let first: Int64
    let dayCount: Int
    let ranks: Int
    let from: Int64
    let to: Int64
    var values: [Double]
    var present: [Bool]

    init(days: ClosedRange<Int64>, ranks: Int) {
      first = days.lowerBound
      dayCount = Int(days.upperBound - days.lowerBound + 1)
      self.ranks = ranks
      from = days.lowerBound * CumulativeCount.day
      to = (days.upperBound + 1) * CumulativeCount.day
      values = Array(repeating: 0, count: dayCount * max(ranks, 0) * CumulativeCount.quartersPerDay)
      present = Array(repeating: false, count: dayCount * max(ranks, 0))
    }

    mutating func touch(_ s: Sample) {
      let a = (max(s.start, from) - from) / CumulativeCount.day
      let b = (min(max(s.end, s.start + 1), to) - 1 - from) / CumulativeCount.day
      for d in a...b { present[Int(d) * ranks + s.rank] = true }
    }

    mutating func add(_ rank: Int, _ amount: Double, at time: Int64) {
      let offset = time - from
      let d = Int(offset / CumulativeCount.day)
      let q = Int((offset % CumulativeCount.day) / CumulativeCount.quarter)
      values[(d * ranks + rank) * CumulativeCount.quartersPerDay + q] += amount
    }

    func rows() -> [Key: [Double]] {
      var result: [Key: [Double]] = [:]
      let n = CumulativeCount.quartersPerDay
      for d in 0..<dayCount {
        for r in 0..<ranks where present[d * ranks + r] {
          let base = (d * ranks + r) * n
          result[Key(day: first + Int64(d), rank: r)] = Array(values[base..<(base + n)])
        }
      }
      return result
    }
  }

  /// Walks the time line: at every moment the best rank with an open sample counts its samples.
  struct Sweep {
    var grid: Grid
    /// The open samples of each rank: a part of a sample counts value × part / duration, which
    /// keeps whole samples whole (a rate per millisecond would leave 89.999… of 90).
    var open: [[End]]
    /// Ends of open samples, the soonest first.
    var ends = MinHeap()
    var time = Int64.min
    var pendingInstants: [Sample] = []

    init(grid: Grid) {
      self.grid = grid
      open = Array(repeating: [], count: grid.ranks)
    }

    var best: Int? { open.firstIndex { !$0.isEmpty } }

    mutating func open(_ s: Sample) {
      let end = End(time: s.end, rank: s.rank, value: s.value, duration: s.end - s.start)
      open[s.rank].append(end)
      ends.push(end)
    }

    /// Counts everything up to `t`, closing the samples that end by then.
    mutating func advance(to t: Int64) {
      guard t > time else { return }
      countInstants()
      while let next = ends.peek, next.time <= t {
        spread(until: next.time)
        while let e = ends.peek, e.time == next.time {
          ends.pop()
          if let i = open[e.rank].firstIndex(of: e) { open[e.rank].remove(at: i) }
        }
      }
      if t != .max { spread(until: t) }
    }

    private mutating func countInstants() {
      for s in pendingInstants where best.map({ s.rank <= $0 }) ?? true {
        grid.add(s.rank, s.value, at: s.start)
      }
      pendingInstants.removeAll(keepingCapacity: true)
    }

    /// Spreads the best open rank's samples over [time, t), cut at quarter hours and the window.
    private mutating func spread(until t: Int64) {
      defer { time = t }
      guard let b = best, time != .min else { return }
      var at = max(time, grid.from)
      let end = min(t, grid.to)
      while at < end {
        let next = min(end, (at / CumulativeCount.quarter + 1) * CumulativeCount.quarter)
        var amount = 0.0
        for e in open[b] { amount += e.value * Double(next - at) / Double(e.duration) }
        grid.add(b, amount, at: at)
        at = next
      }
    }
  }

  struct End: Equatable {
    let time: Int64
    let rank: Int
    let value: Double
    let duration: Int64
  }

  /// A binary heap of sample ends: a handful are open at once, so this stays tiny.
  struct MinHeap {
    private var items: [End] = []
    var peek: End? { items.first }

    mutating func push(_ e: End) {
      items.append(e)
      var i = items.count - 1
      while i > 0, items[(i - 1) / 2].time > items[i].time {
        items.swapAt(i, (i - 1) / 2)
        i = (i - 1) / 2
      }
    }

    mutating func pop() {
      items.swapAt(0, items.count - 1)
      items.removeLast()
      var i = 0
      while true {
        let (l, r) = (2 * i + 1, 2 * i + 2)
        var m = i
        if l < items.count, items[l].time < items[m].time { m = l }
        if r < items.count, items[r].time < items[m].time { m = r }
        if m == i { return }
        items.swapAt(i, m)
        i = m
      }
    }
  }
}

extension Array {
  fileprivate func isSorted(by ordered: (Element, Element) -> Bool) -> Bool {
    indices.dropFirst().allSatisfy { ordered(self[$0 - 1], self[$0]) }
  }
}
