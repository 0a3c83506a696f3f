import Core
import Foundation
import Storage

extension HealthStore {
  /// Readings of one kind added up: how many, the lowest, the highest, their sum.
  public struct VitalStats: Equatable, Sendable {
    public var count = 0
    public var minimum = Double.infinity
    public var maximum = -Double.infinity
    public var sum = 0.0

    public var average: Double { sum / Double(max(count, 1)) }

    public init() {}

    public mutating func add(_ value: Double) {
      count += 1
      minimum = min(minimum, value)
      maximum = max(maximum, value)
      sum += value
    }

    public mutating func add(_ other: VitalStats) {
      count += other.count
      minimum = min(minimum, other.minimum)
      maximum = max(maximum, other.maximum)
      sum += other.sum
    }
  }

  /// One period of a vital's trend: nil figures when no reading fell in it (no data, not 0).
  public struct VitalsRow: Equatable, Sendable {
    public let label: String
    public let from: LocalDate
    public let through: LocalDate
    public let value: VitalStats?
    /// Blood pressure's second number; `value` is the first (systolic).
    public let diastolic: VitalStats?
    public let sources: [String]
  }

  /// One reading as it is read: its moment, its number(s) in the kind's unit, its source.
  public struct VitalReading: Equatable, Sendable {
    public let at: Date
    public let value: Double
    public let diastolic: Double?
    public let source: String
  }

  /// The readings of `kind` from `from` (inclusive) to `to` (exclusive), oldest first; those in
  /// a unit the kind does not read, or beyond any body's range, left out.
  public func vitalReadings(_ kind: VitalKind, from: Date, to: Date) throws -> [VitalReading] {
    var readings: [VitalReading] = []
    var names = SourceNames()
    try db.forEachRow(
      """
      SELECT value, unit, source, start FROM health_sample
      WHERE account_id = ? AND type = ? AND start >= ? AND start < ? ORDER BY start
      """, account.id, kind.type, ISO8601.string(from: from), ISO8601.string(from: to)
    ) { row in
      if let reading = try Self.reading(kind, row, names: &names) { readings.append(reading) }
    }
    return readings
  }

  /// The latest reading of each kind that has one.
  public func latestVitals() throws -> [(kind: VitalKind, reading: VitalReading)] {
    try VitalKind.allCases.compactMap { kind in
      var found: VitalReading?
      try db.scanRows(
        """
        SELECT value, unit, source, start FROM health_sample
        WHERE account_id = ? AND type = ? AND start <= ? ORDER BY start DESC LIMIT 100
        """, account.id, kind.type, ISO8601.string(from: now)
      ) { row in
        var names = SourceNames()
        found = try Self.reading(kind, row, names: &names)
        return found == nil
      }
      return found.map { (kind, $0) }
    }
  }

  /// The last `period.count` days, weeks or months up to today, oldest first (`Trend`'s periods).
  public func vitals(_ kind: VitalKind, _ period: Trend.Period) throws -> [VitalsRow] {
    let today = LocalDate(now, in: calendar)
    let bounds = (0..<period.count).reversed().map { Trend.bounds(period, back: $0, today: today) }
    let byDay = try vitalDays(kind, from: bounds[0].0, through: today)
    return bounds.map { from, last, label in
      let through = min(last, today)
      var value = VitalStats()
      var diastolic = VitalStats()
      var sources = Set<String>()
      var day = from
      while day <= through {
        if let entry = byDay[day] {
          value.add(entry.value)
          diastolic.add(entry.diastolic)
          sources.formUnion(entry.sources)
        }
        day = day.adding(days: 1)
      }
      return VitalsRow(
        label: label, from: from, through: through, value: value.count > 0 ? value : nil,
        diastolic: diastolic.count > 0 ? diastolic : nil, sources: sources.sorted())
    }
  }

  private static func reading(_ kind: VitalKind, _ row: Row, names: inout SourceNames) throws -> VitalReading? {
    guard let ms = row.withUTF8(3, { $0.flatMap(ISO8601.milliseconds(utf8:)) }) else { return nil }
    let at = ISO8601.date(milliseconds: ms)
    let source = names.name(row, 2)
    if kind == .bloodPressure {
      guard case .text(let text) = row[0], let reading = BloodPressure(stored: text),
        kind.plausible.contains(reading.systolic), kind.plausible.contains(reading.diastolic)
      else { return nil }
      return VitalReading(at: at, value: reading.systolic, diastolic: reading.diastolic, source: source)
    }
    let unit: String? = if case .text(let text) = row[1] { text } else { nil }
    guard let number = HealthStore.number(row[0]), let value = kind.value(number, unit: unit) else { return nil }
    return VitalReading(at: at, value: value, diastolic: nil, source: source)
  }
}
