import Core
import Foundation

/// How many scheduled doses were taken over a stretch of days, per medication and per day, and
/// apart from them the doses taken as needed. Adherence is a figure a doctor reads: only doses
/// a schedule asked for count in it; an as-needed dose is never "due".
public struct Adherence: Equatable, Sendable {
  /// Scheduled doses by what became of them. `open` ones (due, not yet taken, skipped or
  /// missed) are not counted either way until they are.
  public struct Counts: Equatable, Sendable {
    public var taken = 0
    public var skipped = 0
    public var missed = 0
    public var open = 0

    public init(taken: Int = 0, skipped: Int = 0, missed: Int = 0, open: Int = 0) {
      (self.taken, self.skipped, self.missed, self.open) = (taken, skipped, missed, open)
    }

    /// Every scheduled dose of the stretch so far, open ones included.
    public var scheduled: Int { taken + skipped + missed + open }
    /// The doses adherence is counted over: taken, skipped or missed.
    public var decided: Int { taken + skipped + missed }
    /// Taken over decided, 0–1; nil when none was decided.
    public var share: Double? { decided == 0 ? nil : Double(taken) / Double(decided) }
    /// The share as a percent with one decimal, as every proportion Vital prints.
    public var percent: Double? { share.map { ($0 * 1000).rounded() / 10 } }

    mutating func count(_ status: DoseStatus) {
      switch status {
      case .taken: taken += 1
      case .skipped: skipped += 1
      case .missed: missed += 1
      case .pending: open += 1
      }
    }

    static func + (a: Counts, b: Counts) -> Counts {
      Counts(
        taken: a.taken + b.taken, skipped: a.skipped + b.skipped, missed: a.missed + b.missed, open: a.open + b.open)
    }
  }

  public struct Scheduled: Equatable, Sendable {
    public let name: String
    public let counts: Counts
  }

  public struct AsNeeded: Equatable, Sendable {
    public let name: String
    public let taken: Int
    /// Doses recorded with `--force` past the medication's limits.
    public let overLimit: Int
    /// Doses per local day of the stretch, oldest first.
    public let perDay: [DayCount]
  }

  public struct DayCount: Equatable, Sendable {
    public let date: LocalDate
    public let count: Int
  }

  /// One local day: its scheduled doses across medications, and the as-needed doses apart.
  public struct Day: Equatable, Sendable {
    public let date: LocalDate
    public let counts: Counts
    public let asNeeded: Int
    public let overLimit: Int
  }

  public let first: LocalDate
  public let last: LocalDate
  public let scheduled: [Scheduled]
  public let asNeeded: [AsNeeded]
  public let days: [Day]

  /// Every scheduled medication's doses added up.
  public var total: Counts { scheduled.map(\.counts).reduce(Counts(), +) }
}

extension MedicationStore {
  /// Adherence over the local days `first` through `last`, up to now: per medication (in the
  /// order of `list()`), and per day. Both `vital meds stats` and the report read it, so their
  /// figures agree by construction.
  public func adherence(from first: LocalDate, through last: LocalDate) throws -> Adherence {
    let from = first.start(in: calendar)
    let to = min(now.addingTimeInterval(0.001), last.adding(days: 1, in: calendar).start(in: calendar))
    var byDay: [LocalDate: Adherence.Counts] = [:]
    var asNeededByDay: [LocalDate: (count: Int, overLimit: Int)] = [:]
    var scheduled: [Adherence.Scheduled] = []
    var asNeeded: [Adherence.AsNeeded] = []
    var days: [LocalDate] = []
    var day = first
    while day <= last {
      days.append(day)
      day = day.adding(days: 1, in: calendar)
    }
    for m in try list() {
      if m.asNeeded {
        let takes = from < to ? try recordedDoses(m.id, from: from, to: to).filter { $0.status == .taken } : []
        var counts: [LocalDate: Int] = [:]
        for t in takes {
          let date = LocalDate(t.scheduledAt, in: calendar)
          counts[date, default: 0] += 1
          asNeededByDay[date, default: (0, 0)].count += 1
          if t.overLimit { asNeededByDay[date, default: (0, 0)].overLimit += 1 }
        }
        asNeeded.append(
          Adherence.AsNeeded(
            name: m.name, taken: takes.count, overLimit: takes.filter(\.overLimit).count,
            perDay: days.map { Adherence.DayCount(date: $0, count: counts[$0] ?? 0) }))
        continue
      }
      var counts = Adherence.Counts()
      for dose in from < to ? try doses(m, from: from, to: to) : [] {
        counts.count(dose.status)
        byDay[LocalDate(dose.scheduledAt, in: calendar), default: Adherence.Counts()].count(dose.status)
      }
      scheduled.append(Adherence.Scheduled(name: m.name, counts: counts))
    }
    return Adherence(
      first: first, last: last, scheduled: scheduled, asNeeded: asNeeded,
      days: days.map { date in
        Adherence.Day(
          date: date, counts: byDay[date] ?? Adherence.Counts(), asNeeded: asNeededByDay[date]?.count ?? 0,
          overLimit: asNeededByDay[date]?.overLimit ?? 0)
      })
  }

  /// Adherence over the last `days` local days, today included.
  public func adherence(days: Int) throws -> Adherence {
    guard (1...3660).contains(days) else { throw MedicationError.badDays }
    let today = LocalDate(now, in: calendar)
    return try adherence(from: today.adding(days: -(days - 1), in: calendar), through: today)
  }
}
