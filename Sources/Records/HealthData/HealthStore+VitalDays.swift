import Core
import Foundation
import Storage

/// A vital's trend over years reads one row per day, not every reading: each local day's
/// readings of a kind are added up once and kept (`health_vital_day`, derived, never synced),
/// the days without readings too, so that a day not kept is a day not yet counted. A kept day
/// is forgotten when a sample starting on a UTC day it overlaps changes (`HealthTotals.refresh`
/// reads those days for both caches before it clears them), and every kept day when the days
/// were counted in a zone other than the calendar's.
extension HealthStore {
  /// One local day's readings of a kind: the figures and the sources that gave them, sorted.
  struct VitalDay {
    var value = VitalStats()
    var diastolic = VitalStats()
    var sources: [String] = []
  }

  /// The days from `first` through `last` with readings of `kind`; kept days are read, the
  /// others counted from the samples and kept.
  func vitalDays(_ kind: VitalKind, from first: LocalDate, through last: LocalDate) throws -> [LocalDate: VitalDay] {
    guard first <= last else { return [:] }
    try HealthTotals(db: db, accountID: account.id, now: now).refresh()
    // Reading first: days all kept take no write lock (an import may hold it).
    if try keptZone() == calendar.timeZone.identifier {
      let kept = try keptVitalDays(kind, from: first, through: last)
      if kept.missing.isEmpty { return kept.days }
    }
    return try db.transaction { db in
      if try keptZone() != calendar.timeZone.identifier {
        // The days were counted in one zone; in another they would fall elsewhere.
        try db.execute("DELETE FROM health_vital_day WHERE account_id = ?", account.id)
        try db.execute(
          "INSERT OR REPLACE INTO health_vital_state (account_id, zone) VALUES (?, ?)", account.id,
          calendar.timeZone.identifier)
      }
      let kept = try keptVitalDays(kind, from: first, through: last)
      var result = kept.days
      for run in kept.missing {
        let counted = try countVitalDays(kind, run)
        var day = run.lowerBound
        while day <= run.upperBound {
          let entry = counted[day] ?? VitalDay()
          try db.execute(
            """
            INSERT OR REPLACE INTO health_vital_day (account_id, type, day, count, minimum, maximum, sum, d_count,
              d_minimum, d_maximum, d_sum, sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            arguments: [account.id, kind.rawValue, day.description] + Self.columns(entry.value)
              + Self.columns(entry.diastolic) + [entry.sources.joined(separator: String(Self.sourceSeparator))])
          if entry.value.count > 0 { result[day] = entry }
          day = day.adding(days: 1)
        }
      }
      return result
    }
  }

  /// The kept days with readings, and the days not kept, in runs of consecutive days.
  private func keptVitalDays(_ kind: VitalKind, from first: LocalDate, through last: LocalDate) throws -> (
    days: [LocalDate: VitalDay], missing: [ClosedRange<LocalDate>]
  ) {
    var result: [LocalDate: VitalDay] = [:]
    var kept = Set<LocalDate>()
    try db.forEachRow(
      """
      SELECT day, count, minimum, maximum, sum, d_count, d_minimum, d_maximum, d_sum, sources
      FROM health_vital_day WHERE account_id = ? AND type = ? AND day BETWEEN ? AND ?
      """, account.id, kind.rawValue, first.description, last.description
    ) { row in
      guard let day = LocalDate(try row.get(0, as: String.self)) else { return }
      kept.insert(day)
      let value = try Self.stats(row, from: 1)
      guard value.count > 0 else { return }
      let sources = try row.get(9, as: String.self)
      result[day] = VitalDay(
        value: value, diastolic: try Self.stats(row, from: 5),
        sources: sources.split(separator: Self.sourceSeparator).map(String.init))
    }
    var missing: [ClosedRange<LocalDate>] = []
    var day = first
    while day <= last {
      if !kept.contains(day) {
        if let run = missing.last, run.upperBound.adding(days: 1) == day {
          missing[missing.count - 1] = run.lowerBound...day
        } else {
          missing.append(day...day)
        }
      }
      day = day.adding(days: 1)
    }
    return (result, missing)
  }

  /// Forgets the kept days that samples starting on these UTC days may fall on: a zone is at
  /// most 14 hours from UTC, so the day before and the day after too.
  static func forgetVitalDays(_ db: Database, accountID: String, utcDays: Set<Int64>) throws {
    var runs: [ClosedRange<Int64>] = []
    for day in utcDays.sorted() {
      if let run = runs.last, run.upperBound + 1 >= day - 1 {
        runs[runs.count - 1] = run.lowerBound...(day + 1)
      } else {
        runs.append((day - 1)...(day + 1))
      }
    }
    func text(_ day: Int64) -> String {
      let (y, m, d) = ISO8601.civil(fromDays: day)
      return String(format: "%04d-%02d-%02d", Int(y), m, d)
    }
    for run in runs {
      try db.execute(
        "DELETE FROM health_vital_day WHERE account_id = ? AND day BETWEEN ? AND ?", accountID,
        text(run.lowerBound), text(run.upperBound))
    }
  }

  /// Source names are joined by the ASCII unit separator, which no device names itself with.
  private static let sourceSeparator: Character = "\u{1F}"

  /// Each day of `days` that had readings of `kind`, added up in the order they were taken.
  private func countVitalDays(_ kind: VitalKind, _ days: ClosedRange<LocalDate>) throws -> [LocalDate: VitalDay] {
    var counted: [LocalDate: VitalDay] = [:]
    var sources: [LocalDate: Set<String>] = [:]
    let localDays = LocalDays(calendar)
    var last: (day: LocalDate, source: String)?
    let readings = try vitalReadings(
      kind, from: days.lowerBound.start(in: calendar), to: days.upperBound.adding(days: 1).start(in: calendar))
    for reading in readings {
      let day = localDays.day(reading.at)
      var entry = counted[day] ?? VitalDay()
      entry.value.add(reading.value)
      if let diastolic = reading.diastolic { entry.diastolic.add(diastolic) }
      counted[day] = entry
      // Readings name their source with one String each (`SourceNames`): no hash when it is the last one's.
      if last?.day != day || last?.source != reading.source { sources[day, default: []].insert(reading.source) }
      last = (day, reading.source)
    }
    for (day, names) in sources { counted[day]?.sources = names.sorted() }
    return counted
  }

  /// The zone the kept days were counted in, if any were.
  private func keptZone() throws -> String? {
    try db.queryFirst(
      "SELECT zone FROM health_vital_state WHERE account_id = ?", account.id, row: { try $0.get(0, as: String.self) })
  }

  private static func columns(_ stats: VitalStats) -> [(any DatabaseValueConvertible)?] {
    stats.count > 0 ? [stats.count, stats.minimum, stats.maximum, stats.sum] : [0, nil, nil, nil]
  }

  private static func stats(_ row: Row, from column: Int) throws -> VitalStats {
    var stats = VitalStats()
    stats.count = try row.get(column, as: Int.self)
    guard stats.count > 0 else { return stats }
    stats.minimum = try row.get(column + 1, as: Double.self)
    stats.maximum = try row.get(column + 2, as: Double.self)
    stats.sum = try row.get(column + 3, as: Double.self)
    return stats
  }
}
