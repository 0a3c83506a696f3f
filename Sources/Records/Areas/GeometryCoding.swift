import Foundation

/// Polygons packed as float64 values: polygon count, then per polygon its ring count, then per
/// ring its point count followed by lon, lat pairs. Compact, and read back without parsing.
enum GeometryCoding {
  static func encode(_ polygons: [GeoPolygon]) -> Data {
    var values: [Double] = [Double(polygons.count)]
    for polygon in polygons {
      values.append(Double(polygon.rings.count))
      for ring in polygon.rings {
        values.append(Double(ring.count))
        for p in ring { values += [p.lon, p.lat] }
      }
    }
    return values.withUnsafeBytes { Data($0) }
  }

  static func decode(_ data: Data) -> [GeoPolygon]? {
    let values: [Double] = data.withUnsafeBytes { raw in
      Array(raw.bindMemory(to: Double.self))
    }
    var i = 0
    func next() -> Int? {
      guard i < values.count, values[i] >= 0, values[i] < 1e9 else { return nil }
      defer { i += 1 }
      return Int(values[i])
    }
    guard let count = next() else { return nil }
    var polygons: [GeoPolygon] = []
    for _ in 0..<count {
      guard let ringCount = next() else { return nil }
      var rings: [[GeoPoint]] = []
      for _ in 0..<ringCount {
        guard let n = next(), i + 2 * n <= values.count else { return nil }
        rings.append((0..<n).map { k in GeoPoint(lon: values[i + 2 * k], lat: values[i + 2 * k + 1]) })
        i += 2 * n
      }
      polygons.append(GeoPolygon(rings: rings))
    }
    return polygons
  }
}
