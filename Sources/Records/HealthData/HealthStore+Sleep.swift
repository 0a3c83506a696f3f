import Core
import Foundation
import Storage

extension HealthStore {
  /// The nights that ended on each of the `days` local days up to today, oldest first; nil for
  /// a day nothing was said of (no data, never zero).
  public func sleep(days: Int) throws -> [(day: LocalDate, night: SleepNight?)] {
    let today = LocalDate(now, in: calendar)
    let first = today.adding(days: -(days - 1))
    let nights = Dictionary(
      try sleepNights(from: first.start(in: calendar), through: today).map { ($0.day, $0) },
      uniquingKeysWith: { a, _ in a })
    return (0..<days).map { offset in
      let day = first.adding(days: offset)
      return (day, nights[day])
    }
  }

  /// Every night that ended from the day of `from` through `through`, oldest first; `nil`
  /// reaches back to the first sample.
  public func sleepNights(from: Date?, through: LocalDate) throws -> [SleepNight] {
    // A night that ends on the first day began the day before; no sample lasts a day.
    let earliest = from.map { ISO8601.string(from: $0.addingTimeInterval(-2 * 86_400)) } ?? ""
    let end = ISO8601.string(from: through.adding(days: 1).start(in: calendar))
    var samples: [SleepSample] = []
    var sourceNames = SourceNames()
    var names = Set<String>()
    try db.forEachRow(
      Self.sleepQuery, account.id, earliest, end
    ) { row in
      let text: String? =
        switch row[0] {
        case .text(let text): text
        case .integer(let number): String(number)
        default: nil
        }
      // A value this Vital does not know, or a record without dates, says nothing of sleep.
      guard let text, let state = SleepState(healthValue: text),
        let start = row.withUTF8(2, { $0.flatMap(ISO8601.milliseconds(utf8:)) }),
        let end = row.withUTF8(3, { $0.flatMap(ISO8601.milliseconds(utf8:)) })
      else { return }
      let source = sourceNames.name(row, 1)
      if samples.last?.source != source { names.insert(source) }
      samples.append(
        SleepSample(
          state: state, source: source, start: ISO8601.date(milliseconds: start), end: ISO8601.date(milliseconds: end)))
    }
    let ranking = try sourceRanking(extra: Array(names))
    let first = from.map { LocalDate($0, in: calendar) }
    return SleepAnalysis.nights(samples, rank: ranking.rank, calendar: calendar).filter { night in
      night.day <= through && (first.map { night.day >= $0 } ?? true)
    }
  }

  /// An account's sleep samples starting in a stretch, read from `health_sample_sleep` alone.
  static let sleepQuery = """
    SELECT value, source, start, "end" FROM health_sample
    WHERE account_id = ? AND \(sleepSamples) AND start >= ? AND start < ?
    """
}
