/// Finds the district of many points in one go: a grid over the districts' boxes narrows each
/// point to a few candidates, then the exact test decides. Where districts overlap (borders
/// simplified independently), the candidate with the lowest id wins, so the answer is the same
/// every time and on every machine.
public struct Locator: Sendable {
  let areas: [Area]
  let bounds: GeoBox
  let columns = 256
  let rows = 256
  let cells: [[Int32]]

  public init(areas: [Area]) {
    self.areas = areas.sorted { $0.id < $1.id }
    var bounds = GeoBox()
    for area in self.areas {
      bounds.add(GeoPoint(lon: area.box.minLon, lat: area.box.minLat))
      bounds.add(GeoPoint(lon: area.box.maxLon, lat: area.box.maxLat))
    }
    self.bounds = bounds
    var cells = Array(repeating: [Int32](), count: columns * rows)
    if !self.areas.isEmpty {
      for (index, area) in self.areas.enumerated() {
        let (c0, r0) = Self.cell(GeoPoint(lon: area.box.minLon, lat: area.box.minLat), bounds, columns, rows)
        let (c1, r1) = Self.cell(GeoPoint(lon: area.box.maxLon, lat: area.box.maxLat), bounds, columns, rows)
        for r in r0...r1 { for c in c0...c1 { cells[r * columns + c].append(Int32(index)) } }
      }
    }
    self.cells = cells
  }

  static func cell(_ p: GeoPoint, _ b: GeoBox, _ columns: Int, _ rows: Int) -> (Int, Int) {
    let width = max(b.maxLon - b.minLon, 1e-9)
    let height = max(b.maxLat - b.minLat, 1e-9)
    let c = Int(((p.lon - b.minLon) / width * Double(columns)).rounded(.down))
    let r = Int(((p.lat - b.minLat) / height * Double(rows)).rounded(.down))
    return (min(max(c, 0), columns - 1), min(max(r, 0), rows - 1))
  }

  /// The district containing `p`, or nil outside all of them.
  public func locate(_ p: GeoPoint) -> Area? {
    guard bounds.contains(p) else { return nil }
    let (c, r) = Self.cell(p, bounds, columns, rows)
    // Candidates are in id order, so the first hit is the documented answer for overlaps.
    for index in cells[r * columns + c] where areas[Int(index)].contains(p) { return areas[Int(index)] }
    return nil
  }
}
