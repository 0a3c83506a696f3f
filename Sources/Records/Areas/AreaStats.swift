import Core
import Foundation
import Storage

/// Incidence figures from the RKI district table (CSV: UTF-8 with a BOM, quoted fields,
/// `last_update` like `15.10.2020, 00:00 Uhr`, `OBJECTID` or the older `FID`) or from GeoJSON
/// feature properties, joined to the imported districts on their key. Keys with no district
/// of their own but a state-level one (Berlin's 12 boroughs, 11001 to 11012, and the single
/// Berlin district 11000) are combined into it, weighted by population.
public enum AreaStats {
  public struct Result: Sendable {
    public var stats: [String: AreaStore.Stat] = [:]
    public var rows = 0
    /// District id and the keys combined into it.
    public var combined: [String: [String]] = [:]
    public var unmatched: [String] = []
  }

  struct Row {
    let key: String
    let incidence: Double?
    let asOf: String?
    let population: Double?
  }

  public static func read(
    _ data: Data, file: String, key: String, incidenceProperty: String, districts: Set<String>
  ) throws -> Result {
    let rows =
      try looksLikeJSON(data)
      ? geoJSONRows(data, file, key, incidenceProperty) : csvRows(data, file, key, incidenceProperty)
    var result = Result()
    result.rows = rows.count
    // Some geometries carry the 12-digit regional key (096620000000) where the table has 5 digits.
    var byKey: [String: String] = [:]
    for id in districts {
      byKey[id] = id
      if id.count == 12, id.hasSuffix("0000000") { byKey[String(id.prefix(5))] = byKey[String(id.prefix(5))] ?? id }
    }
    var groups: [String: [Row]] = [:]
    for row in rows {
      if let district = byKey[row.key] {
        groups[district, default: []].append(row)
      } else if row.key.count == 5, let district = byKey[String(row.key.prefix(2)) + "000"] {
        groups[district, default: []].append(row)
        result.combined[district, default: []].append(row.key)
      } else {
        result.unmatched.append(row.key)
      }
    }
    for (district, members) in groups {
      result.stats[district] = combine(members)
    }
    result.unmatched.sort()
    for key in result.combined.keys { result.combined[key]!.sort() }
    return result
  }

  /// One row as it is; several weighted by population (a plain mean if any population is missing).
  static func combine(_ rows: [Row]) -> AreaStore.Stat {
    if rows.count == 1 { return AreaStore.Stat(incidence: rows[0].incidence, asOf: rows[0].asOf) }
    let asOf = rows.compactMap(\.asOf).max()
    let known = rows.filter { $0.incidence != nil }
    guard !known.isEmpty else { return AreaStore.Stat(incidence: nil, asOf: asOf) }
    if known.allSatisfy({ ($0.population ?? 0) > 0 }) {
      let total = known.reduce(0) { $0 + $1.population! }
      let weighted = known.reduce(0) { $0 + $1.incidence! * $1.population! }
      return AreaStore.Stat(incidence: weighted / total, asOf: asOf)
    }
    return AreaStore.Stat(incidence: known.reduce(0) { $0 + $1.incidence! } / Double(known.count), asOf: asOf)
  }

  static func looksLikeJSON(_ data: Data) -> Bool {
    data.prefix(64).first {
      !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
    }
      == UInt8(ascii: "{")
  }

  static func csvRows(_ data: Data, _ file: String, _ key: String, _ incidence: String) throws -> [Row] {
    let records: [CSV.Record]
    do {
      records = try CSV.parse(data)
    } catch let error as CSV.ParseError {
      throw AreaError.badStats(file, reason: error.description)
    }
    guard let header = records.first?.fields else { throw AreaError.badStats(file, reason: "the file is empty") }
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }
    guard let keyColumn = column(key) else { throw AreaError.badStats(file, reason: "no column '\(key.prefix(40))'") }
    guard let incidenceColumn = column(incidence) else {
      throw AreaError.badStats(file, reason: "no column '\(incidence.prefix(40))'")
    }
    let dateColumn = column("last_update")
    let populationColumn = column("EWZ")
    return try records.dropFirst().compactMap { record in
      let f = record.fields
      if f.count == 1, f[0].isEmpty { return nil }
      guard f.count == header.count else {
        throw AreaError.badStats(file, reason: "line \(record.line) has \(f.count) fields, the header \(header.count)")
      }
      let value = f[incidenceColumn].trimmingCharacters(in: .whitespaces)
      var number: Double?
      if !value.isEmpty {
        guard let parsed = Double(value) else {
          throw AreaError.badStats(file, reason: "line \(record.line): \(incidence) is not a number")
        }
        number = try checked(parsed, incidence, at: "line \(record.line)", file)
      }
      let population = try populationColumn.flatMap { column -> Double? in
        let text = f[column].trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0, value < 1e10 else {
          throw AreaError.badStats(file, reason: "line \(record.line): EWZ is not a population")
        }
        return value
      }
      return Row(
        key: f[keyColumn].trimmingCharacters(in: .whitespaces), incidence: number,
        asOf: dateColumn.flatMap { day(f[$0]) }, population: population)
    }
  }

  static func geoJSONRows(_ data: Data, _ file: String, _ key: String, _ incidence: String) throws -> [Row] {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let features = root["features"] as? [Any]
    else { throw AreaError.notFeatureCollection(file) }
    var rows: [Row] = []
    for (index, item) in features.enumerated() {
      guard let properties = (item as? [String: Any])?["properties"] as? [String: Any],
        let k = GeoJSONReader.text(properties[key])
      else { continue }
      let place = "feature \(index + 1)"
      let figure = try properties[incidence].flatMap { value -> Double? in
        if value is NSNull { return nil }
        guard let number = GeoJSONReader.number(value) else {
          throw AreaError.badStats(file, reason: "\(place): \(incidence) is not a number")
        }
        return try checked(number, incidence, at: place, file)
      }
      let population = try properties["EWZ"].flatMap { value -> Double? in
        if value is NSNull { return nil }
        guard let number = GeoJSONReader.number(value), number.isFinite, number >= 0, number < 1e10 else {
          throw AreaError.badStats(file, reason: "\(place): EWZ is not a population")
        }
        return number
      }
      rows.append(
        Row(
          key: k, incidence: figure, asOf: (properties["last_update"] as? String).flatMap(day), population: population)
      )
    }
    return rows
  }

  /// An incidence per 100,000 in 7 days: at most everyone, 100,000. `inf`, `1e308` and
  /// negative figures are refused with their place, not stored empty.
  static func checked(_ value: Double, _ column: String, at place: String, _ file: String) throws -> Double {
    guard value.isFinite, (0...100_000).contains(value) else {
      throw AreaError.badStats(file, reason: "\(place): \(column) must be a figure from 0 to 100000 per 100,000")
    }
    return value
  }

  /// `15.10.2020, 00:00 Uhr` (the RKI's form) or an ISO date, as `2020-10-15`.
  static func day(_ text: String) -> String? {
    let t = text.trimmingCharacters(in: .whitespaces)
    if let d = LocalDate(String(t.prefix(10))) { return d.description }
    let parts = t.prefix(10).split(separator: ".")
    guard parts.count == 3, let d = Int(parts[0]), let m = Int(parts[1]), let y = Int(parts[2]),
      let date = LocalDate(year: y, month: m, day: d)
    else { return nil }
    return date.description
  }
}
