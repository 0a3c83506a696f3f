import Foundation

/// Reads districts from a GeoJSON FeatureCollection (RFC 7946: positions are [longitude,
/// latitude]). Polygon and MultiPolygon features become areas; a feature with another or no
/// geometry, or without the id property, is skipped and counted. Any malformed geometry stops
/// the whole read, so an import is all or nothing.
public enum GeoJSONReader {
  public struct Result: Sendable {
    public var areas: [Area] = []
    /// Skipped features, by reason (`"Point geometry"`, `"no geometry"`, `"no RS property"`).
    public var skipped: [String: Int] = [:]
    public var skippedCount: Int { skipped.values.reduce(0, +) }
  }

  public static func read(
    _ data: Data, file: String, idProperty: String, nameProperty: String
  ) throws -> Result {
    guard let root = try? JSONSerialization.jsonObject(with: data) else { throw AreaError.notJSON(file) }
    guard let object = root as? [String: Any], let features = object["features"] as? [Any] else {
      throw AreaError.notFeatureCollection(file)
    }
    var result = Result()
    var seen = Set<String>()
    for (index, item) in features.enumerated() {
      func bad(_ reason: String) -> AreaError { .badFeature(file, index: index, reason: reason) }
      guard let feature = item as? [String: Any] else { throw bad("not an object") }
      guard let geometry = feature["geometry"] as? [String: Any] else {
        result.skipped["no geometry", default: 0] += 1
        continue
      }
      let type = geometry["type"] as? String ?? "?"
      guard type == "Polygon" || type == "MultiPolygon" else {
        result.skipped["\(type.prefix(30)) geometry", default: 0] += 1
        continue
      }
      let properties = feature["properties"] as? [String: Any] ?? [:]
      guard let id = text(properties[idProperty]), !id.isEmpty else {
        result.skipped["no \(idProperty) property", default: 0] += 1
        continue
      }
      guard !seen.contains(id) else { throw bad("the \(idProperty) '\(id.prefix(20))' appears twice") }
      seen.insert(id)
      let coordinates = geometry["coordinates"]
      let polygons: [GeoPolygon]
      if type == "Polygon" {
        polygons = [try polygon(coordinates, bad)]
      } else {
        guard let parts = coordinates as? [Any], !parts.isEmpty else { throw bad("MultiPolygon without polygons") }
        polygons = try parts.map { try polygon($0, bad) }
      }
      let population =
        (properties["EWZ"] as? NSNumber)?.intValue
        ?? ((properties["destatis"] as? [String: Any])?["population"] as? NSNumber)?.intValue
      result.areas.append(
        Area(
          id: id, name: text(properties[nameProperty]) ?? id, kind: text(properties["BEZ"]), population: population,
          polygons: polygons))
    }
    return result
  }

  static func text(_ value: Any?) -> String? {
    if let s = value as? String { return s }
    if let n = value as? NSNumber { return n.stringValue }
    return nil
  }

  static func polygon(_ value: Any?, _ bad: (String) -> AreaError) throws -> GeoPolygon {
    guard let rings = value as? [Any], !rings.isEmpty else { throw bad("a polygon needs at least one ring") }
    return GeoPolygon(rings: try rings.map { try ring($0, bad) })
  }

  static func ring(_ value: Any?, _ bad: (String) -> AreaError) throws -> [GeoPoint] {
    guard let positions = value as? [Any] else { throw bad("a ring must be an array of positions") }
    var points: [GeoPoint] = []
    points.reserveCapacity(positions.count)
    for position in positions {
      guard let pair = position as? [Any], pair.count >= 2, let lon = number(pair[0]), let lat = number(pair[1]) else {
        throw bad("a position must be [longitude, latitude] numbers")
      }
      guard lon.isFinite, lat.isFinite, (-180...180).contains(lon), (-90...90).contains(lat) else {
        throw bad("a position is outside longitude -180..180, latitude -90..90 (RFC 7946 puts longitude first)")
      }
      points.append(GeoPoint(lon: lon, lat: lat))
    }
    guard points.count >= 4 else { throw bad("a ring needs at least 4 positions") }
    guard points.first == points.last else {
      throw bad("a ring is not closed (its last position must equal its first)")
    }
    return points
  }

  /// A JSON number; `true` and `false` are NSNumbers too (of type `c`), and no coordinate.
  static func number(_ value: Any) -> Double? {
    guard let n = value as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
    return n.doubleValue
  }
}
