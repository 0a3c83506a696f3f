import Foundation

/// One point of `vital area locate --points FILE`: where it is, its label, and the district,
/// latest figures and phase found there (all nil outside every district).
public struct PointLookup: Sendable {
  public let point: GeoPoint
  public let label: String?
  public let area: Area?
  public let stat: AreaStore.Stat?
  public let phase: Phase?
}

extension PointLookup {
  /// The points of a `lat,lon[,label]` file, a header row allowed; the first bad row refuses
  /// the whole file, with its line number.
  public static func points(_ records: [CSV.Record], headerAllowed: Bool = true) throws -> [(GeoPoint, String?)] {
    var points: [(GeoPoint, String?)] = []
    for (index, record) in records.enumerated() {
      let f = record.fields
      if f.count == 1, f[0].isEmpty { continue }
      let lat = Double(f[0].trimmingCharacters(in: .whitespaces))
      let lon = f.count > 1 ? Double(f[1].trimmingCharacters(in: .whitespaces)) : nil
      if index == 0, headerAllowed, lat == nil { continue }  // a header row
      guard f.count >= 2, f.count <= 3, let lat, let lon else {
        throw AreaError.badPointsFile(line: record.line, reason: "expected lat,lon[,label] numbers")
      }
      guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else {
        throw AreaError.badPointsFile(line: record.line, reason: "latitude must be within -90..90, longitude -180..180")
      }
      points.append((GeoPoint(lon: lon, lat: lat), f.count == 3 ? f[2] : nil))
    }
    return points
  }

  public static let csvHeader = ["lat", "lon", "label", "area_id", "area_name", "incidence", "as_of", "phase"]

  /// The lookups as CSV, one row a point, in the file's order (after the header, when asked).
  public static func exportCSV(
    _ results: [PointLookup], header: Bool = true, write: @escaping ([UInt8]) throws -> Void
  ) throws {
    var csv = CSVWriter(sink: write)
    if header {
      for field in csvHeader { csv.field(field) }
      try csv.endRecord()
    }
    for r in results {
      csv.field(String(r.point.lat))
      csv.field(String(r.point.lon))
      csv.field(r.label ?? "")
      csv.field(r.area?.id ?? "")
      csv.field(r.area?.name ?? "")
      csv.field(r.stat?.incidence.map { String(format: "%.2f", $0) } ?? "")
      csv.field(r.stat?.asOf ?? "")
      csv.field(r.area == nil ? "outside" : r.phase?.rawValue ?? "unknown")
      try csv.endRecord()
    }
    try csv.flush()
  }
}

/// The districts held in memory behind a grid index, with their figures and the phase scale:
/// what locating many points takes, read once.
public struct PointLocator {
  let locator: Locator
  let stats: [String: AreaStore.Stat]
  let scale: PhaseScale

  public func lookup(_ point: GeoPoint, label: String?) -> PointLookup {
    let area = locator.locate(point)
    let stat = area.flatMap { stats[$0.id] }
    return PointLookup(point: point, label: label, area: area, stat: stat, phase: scale.phase(stat?.incidence))
  }
}

extension AreaStore {
  public func pointLocator() throws -> PointLocator {
    let areas = try allAreas()
    guard !areas.isEmpty else { throw AreaError.noDistricts }
    return PointLocator(locator: Locator(areas: areas), stats: try allStats(), scale: try scale())
  }

  /// Every point located in one pass.
  public func locate(_ points: [(GeoPoint, String?)]) throws -> [PointLookup] {
    let locator = try pointLocator()
    return points.map { locator.lookup($0.0, label: $0.1) }
  }
}
