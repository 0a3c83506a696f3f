import ArgumentParser
import CLICore
import Foundation
import Health

/// `vital area locate --points FILE`: every `lat,lon[,label]` row located in one process, with
/// the districts held in memory behind a grid index.
enum PointsLookup {
  static func run(_ c: AreaContext, file: String, language: Guidelines.Language) throws {
    let records: [CSV.Record]
    do {
      records = try CSV.parse(try InputFile.read(file, limit: 1 << 30))
    } catch let error as CSV.ParseError {
      throw AreaError.badPointsFile(line: 0, reason: error.description)
    }
    let areas = try c.store.allAreas()
    guard !areas.isEmpty else { throw AreaError.noDistricts }
    let locator = Locator(areas: areas)
    let stats = try c.store.allStats()
    let scale = try c.store.scale()
    var points: [(GeoPoint, String?)] = []
    for (index, record) in records.enumerated() {
      let f = record.fields
      if f.count == 1, f[0].isEmpty { continue }
      let lat = Double(f[0].trimmingCharacters(in: .whitespaces))
      let lon = f.count > 1 ? Double(f[1].trimmingCharacters(in: .whitespaces)) : nil
      if index == 0, lat == nil { continue }  // a header row
      guard f.count >= 2, f.count <= 3, let lat, let lon else {
        throw AreaError.badPointsFile(line: record.line, reason: "expected lat,lon[,label] numbers")
      }
      guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else {
        throw AreaError.badPointsFile(line: record.line, reason: "latitude must be within -90..90, longitude -180..180")
      }
      points.append((GeoPoint(lon: lon, lat: lat), f.count == 3 ? f[2] : nil))
    }
    let results = points.map { point, label -> (GeoPoint, String?, Area?, AreaStore.Stat?, Phase?) in
      let area = locator.locate(point)
      let stat = area.flatMap { stats[$0.id] }
      return (point, label, area, stat, scale.phase(stat?.incidence))
    }
    if c.app.output.json {
      Output.write(
        JSON.array(
          results.map { point, label, area, stat, phase in
            .object(
              [("lat", .double(point.lat)), ("lon", .double(point.lon)), ("label", .optional(label))]
                + (c.json(area: area, stat: stat, phase: phase, language: language).members))
          }
        ).serialized(pretty: false))
      return
    }
    var csv = CSVWriter { FileHandle.standardOutput.write(Data($0)) }
    for field in ["lat", "lon", "label", "area_id", "area_name", "incidence", "as_of", "phase"] { csv.field(field) }
    try csv.endRecord()
    for (point, label, area, stat, phase) in results {
      csv.field(String(point.lat))
      csv.field(String(point.lon))
      csv.field(label ?? "")
      csv.field(area?.id ?? "")
      csv.field(area?.name ?? "")
      csv.field(stat?.incidence.map { String(format: "%.2f", $0) } ?? "")
      csv.field(stat?.asOf ?? "")
      csv.field(area == nil ? "outside" : phase?.rawValue ?? "unknown")
      try csv.endRecord()
    }
    try csv.flush()
  }
}

extension JSON {
  /// An object's members, to extend it.
  var members: [(String, JSON)] {
    if case .object(let m) = self { return m }
    return []
  }
}
