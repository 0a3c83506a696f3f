import Core
import Foundation
import Records
import Storage

/// Every kind of record as RFC 4180 CSV, one documented header each (docs/cli.md, "CSV"):
/// what `vital export --format csv` and each kind's own `export` write. Date-times are ISO 8601
/// with the local offset, days `YYYY-MM-DD`; a value not known is an empty field, never 0.
public struct CSVExport: AccountScoped {
  public enum Kind: String, CaseIterable, Sendable {
    case donations, doses, periods, notes, samples
    case dailyTotals = "daily-totals"
    case goals

    public var header: [String] {
      switch self {
      case .donations: return DonationStore.csvHeader
      case .doses: return MedicationStore.csvHeader
      case .periods: return ["id", "start", "end", "days", "excluded"]
      case .notes:
        return [
          "date", "flow", "temperature_c", "temperature_time", "temperature_excluded", "mucus", "pain", "mood", "sex",
          "text",
        ]
      case .samples: return ["id", "type", "value", "unit", "source", "start", "end"]
      case .dailyTotals: return ["date", "steps", "distance_m", "energy_kcal", "exercise_min"]
      case .goals: return ["id", "type", "target", "unit", "title", "description"]
      }
    }

    /// The file a whole export writes this kind to.
    public var fileName: String { "\(rawValue).csv" }
  }

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  /// Streams `kind` to `write` in chunks; returns the rows written (the header not counted).
  @discardableResult
  public func write(_ kind: Kind, to write: @escaping ([UInt8]) throws -> Void) throws -> Int {
    switch kind {
    case .donations:
      return try DonationStore(scope).exportCSV(write: write)
    case .doses:
      return try MedicationStore(scope).exportCSV(write: write)
    default:
      var csv = CSVWriter(sink: write)
      for name in kind.header { csv.field(name) }
      try csv.endRecord()
      let rows = try body(kind, &csv)
      try csv.flush()
      return rows
    }
  }

  private func body(_ kind: Kind, _ csv: inout CSVWriter) throws -> Int {
    let zone = calendar.timeZone
    var rows = 0
    func end(_ csv: inout CSVWriter) throws {
      try csv.endRecord()
      rows += 1
    }
    switch kind {
    case .periods:
      for p in try PeriodStore(scope).list() {
        csv.field(p.id)
        csv.field(p.start.description)
        csv.field(p.end?.description ?? "")
        csv.field(p.length.map(String.init) ?? "")
        csv.field(p.excluded ? "1" : "0")
        try end(&csv)
      }
    case .notes:
      for n in try PeriodStore(scope).notes() {
        for field in [
          n.date.description, n.flow?.rawValue ?? "", n.temperature.map { String($0) } ?? "", n.temperatureTime ?? "",
          n.temperature == nil ? "" : n.temperatureExcluded ? "1" : "0", n.mucus?.rawValue ?? "",
          n.pain.joined(separator: ";"), n.mood.joined(separator: ";"), n.sex?.rawValue ?? "", n.text ?? "",
        ] {
          csv.field(field)
        }
        try end(&csv)
      }
    case .samples:
      let names = Dictionary(uniqueKeysWithValues: HealthType.manual.map { ($0.type, $0.name) })
      try db.forEachRow(
        """
        SELECT id, type, value, unit, source, start, "end" FROM health_sample WHERE account_id = ?
        ORDER BY start, id
        """, account.id
      ) { row in
        let type: String = try row.get(1)
        csv.field(try row.get(0, as: String.self))
        csv.field(names[type] ?? type)
        switch row[2] {
        case .integer(let n): csv.field(String(n))
        case .real(let d): csv.field(String(d))
        case .text(let t): csv.field(t)
        default: csv.field("")
        }
        // The four quantities in the units their names promise (Apple's "count" is steps).
        let stored = try row.get(3, as: String?.self) ?? ""
        csv.field(names[type].flatMap { HealthTotals.Measure(name: $0)?.unit } ?? stored)
        csv.field(try row.get(4, as: String?.self) ?? "")
        for column in [5, 6] {
          csv.field(try row.get(column, as: Date?.self).map { ISO8601.string(from: $0, timeZone: zone) } ?? "")
        }
        try end(&csv)
      }
    case .dailyTotals:
      rows += try dailyTotals(&csv)
    case .goals:
      for g in try GoalStore(scope).list() {
        for field in [
          g.id, g.kind.name, Self.number(g.target), g.kind.measure.unit, g.title ?? "", g.description ?? "",
        ] {
          csv.field(field)
        }
        try end(&csv)
      }
    case .donations, .doses:
      break
    }
    return rows
  }

  /// One row per local day with a sample, oldest first, each measure counted as `health
  /// summary` counts it; a measure without one that day is empty, not 0, and a day without any
  /// has no row.
  private func dailyTotals(_ csv: inout CSVWriter) throws -> Int {
    guard
      let first = try db.scalar(
        Date.self, "SELECT min(start) FROM health_sample WHERE account_id = ?", account.id)
    else { return 0 }
    let today = LocalDate(now, in: calendar)
    let from = min(LocalDate(first, in: calendar), today)
    let measures = HealthTotals.Measure.allCases
    var rows = 0
    // A year at a time, so a decade of data is not one dictionary.
    var start = from
    while start <= today {
      let stop = min(start.adding(days: 365), today)
      let counted = try HealthTotals(db: db, accountID: account.id, now: now).counted(
        measures, days: start...stop, in: calendar)
      var day = start
      while day <= stop {
        let values = measures.map { m in counted[day]?[m].map { $0.values.reduce(0, +) }.flatMap { $0 > 0 ? $0 : nil } }
        if values.contains(where: { $0 != nil }) {
          csv.field(day.description)
          for value in values { csv.field(value.map { Self.number(($0 * 100).rounded() / 100) } ?? "") }
          try csv.endRecord()
          rows += 1
        }
        day = day.adding(days: 1)
      }
      start = stop.adding(days: 1)
    }
    return rows
  }

  /// `8000`, `4828.03`: whole numbers without a fraction.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}
