/// Why an area command was refused. Messages name the feature or line, never a value of the user's.
public enum AreaError: Error, Equatable, CustomStringConvertible {
  case notJSON(String)
  case notFeatureCollection(String)
  case badFeature(String, index: Int, reason: String)
  case noAreas(String)
  case noDistricts
  case outside(lat: Double, lon: Double)
  case badCoordinate(String)
  case badThresholds
  case badPointsFile(line: Int, reason: String)
  case badStats(String, reason: String)
  case watchNotFound(String)
  case emptyLabel

  public var description: String {
    switch self {
    case .notJSON(let file): return "'\(file)' is not JSON; give a GeoJSON FeatureCollection"
    case .notFeatureCollection(let file): return "'\(file)' is not a GeoJSON FeatureCollection (no \"features\" array)"
    case .badFeature(let file, let index, let reason):
      return "'\(file)', feature \(index + 1): \(reason); nothing was imported"
    case .noAreas(let file):
      return "'\(file)' has no Polygon or MultiPolygon feature with the id property; nothing was imported"
    case .noDistricts: return "no districts imported yet; run 'vital area import FILE.geojson' first"
    case .outside(let lat, let lon):
      return "no district contains lat \(lat), lon \(lon) (outside the imported districts; lat and lon swapped?)"
    case .badCoordinate(let what): return what
    case .badThresholds:
      return
        "give three increasing thresholds, e.g. --thresholds 35,50,100 (green <= 35 < yellow <= 50 < red <= 100 < dark red)"
    case .badPointsFile(let line, let reason):
      return "points file, line \(line): \(reason); use rows of lat,lon[,label]"
    case .badStats(let file, let reason): return "'\(file)': \(reason); nothing was imported"
    case .watchNotFound(let key): return "no watched place '\(key.prefix(40))'; see 'vital area watch list'"
    case .emptyLabel: return "give the place a --label"
    }
  }
}
