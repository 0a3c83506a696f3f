/// A position as GeoJSON orders it (RFC 7946): longitude first, then latitude.
public struct GeoPoint: Equatable, Sendable {
  public var lon: Double
  public var lat: Double

  public init(lon: Double, lat: Double) {
    self.lon = lon
    self.lat = lat
  }
}

/// A bounding box in degrees.
public struct GeoBox: Equatable, Sendable {
  public var minLon = Double.infinity, maxLon = -Double.infinity
  public var minLat = Double.infinity, maxLat = -Double.infinity

  mutating func add(_ p: GeoPoint) {
    minLon = min(minLon, p.lon)
    maxLon = max(maxLon, p.lon)
    minLat = min(minLat, p.lat)
    maxLat = max(maxLat, p.lat)
  }

  func contains(_ p: GeoPoint) -> Bool {
    p.lon >= minLon && p.lon <= maxLon && p.lat >= minLat && p.lat <= maxLat
  }
}

/// A polygon: the outer ring first, then its holes. Rings are closed (first = last position).
public struct GeoPolygon: Equatable, Sendable {
  public let rings: [[GeoPoint]]

  public enum Containment { case outside, inside, boundary }

  /// Inside the outer ring and in no hole; a point on any ring counts as in the polygon.
  func contains(_ p: GeoPoint) -> Bool {
    guard let outer = rings.first else { return false }
    switch Self.locate(p, in: outer) {
    case .outside: return false
    case .boundary: return true
    case .inside: break
    }
    for hole in rings.dropFirst() where Self.locate(p, in: hole) == .inside { return false }
    return true
  }

  /// Even-odd ray casting towards +longitude, with points on an edge reported as boundary.
  static func locate(_ p: GeoPoint, in ring: [GeoPoint]) -> Containment {
    var inside = false
    var j = ring.count - 1
    for i in 0..<ring.count {
      let a = ring[i]
      let b = ring[j]
      j = i
      // On the segment a-b?
      let cross = (b.lon - a.lon) * (p.lat - a.lat) - (b.lat - a.lat) * (p.lon - a.lon)
      if abs(cross) <= 1e-12, min(a.lon, b.lon) <= p.lon, p.lon <= max(a.lon, b.lon), min(a.lat, b.lat) <= p.lat,
        p.lat <= max(a.lat, b.lat)
      {
        return .boundary
      }
      if (a.lat > p.lat) != (b.lat > p.lat) {
        let lonAtLat = a.lon + (p.lat - a.lat) * (b.lon - a.lon) / (b.lat - a.lat)
        if p.lon < lonAtLat { inside.toggle() }
      }
    }
    return inside ? .inside : .outside
  }
}

/// A district: its key (the `RS` property by default), name, and shape.
public struct Area: Equatable, Sendable {
  public let id: String
  public let name: String
  public let kind: String?
  public let population: Int?
  public let polygons: [GeoPolygon]
  public let box: GeoBox

  public init(id: String, name: String, kind: String?, population: Int?, polygons: [GeoPolygon]) {
    self.id = id
    self.name = name
    self.kind = kind
    self.population = population
    self.polygons = polygons
    var box = GeoBox()
    for polygon in polygons { for p in polygon.rings.first ?? [] { box.add(p) } }
    self.box = box
  }

  public func contains(_ p: GeoPoint) -> Bool {
    box.contains(p) && polygons.contains { $0.contains(p) }
  }
}
