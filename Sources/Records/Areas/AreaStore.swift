import Core
import Foundation
import Storage

/// Districts, their incidence, the phase thresholds, and one account's watched places.
public struct AreaStore: AccountScoped {

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  // MARK: Districts

  /// Replaces every district in one transaction.
  public func replaceAreas(_ areas: [Area]) throws {
    try db.transaction { db in
      try db.execute("DELETE FROM area_box")
      try db.execute("DELETE FROM area")
      for area in areas {
        try db.execute(
          "INSERT INTO area (id, name, kind, population, geometry) VALUES (?, ?, ?, ?, ?)", area.id, area.name,
          area.kind, area.population, GeometryCoding.encode(area.polygons))
        // The R*Tree keeps 32-bit floats: the box is widened so rounding never cuts a district off.
        let pad = 1e-4
        try db.execute(
          "INSERT INTO area_box (id, min_lon, max_lon, min_lat, max_lat) VALUES (last_insert_rowid(), ?, ?, ?, ?)",
          area.box.minLon - pad, area.box.maxLon + pad, area.box.minLat - pad, area.box.maxLat + pad)
      }
    }
  }

  public func areaCount() throws -> Int { try db.scalar(Int.self, "SELECT count(*) FROM area") ?? 0 }

  public func allAreas() throws -> [Area] {
    try db.query("SELECT id, name, kind, population, geometry FROM area ORDER BY id", row: Self.area)
  }

  /// The district containing `p`: candidates from the R*Tree, then the exact test; the lowest
  /// id where districts overlap (as `Locator`).
  public func locate(_ p: GeoPoint) throws -> Area? {
    let candidates = try db.query(
      """
      SELECT a.id, a.name, a.kind, a.population, a.geometry FROM area_box b JOIN area a ON a.rowid = b.id
      WHERE b.min_lon <= ? AND b.max_lon >= ? AND b.min_lat <= ? AND b.max_lat >= ? ORDER BY a.id
      """, p.lon, p.lon, p.lat, p.lat, row: Self.area)
    if candidates.isEmpty, try areaCount() == 0 { throw AreaError.noDistricts }
    return candidates.first { $0.contains(p) }
  }

  static func area(_ row: Row) throws -> Area {
    guard let polygons = GeometryCoding.decode(try row.get("geometry")) else {
      throw StorageError.typeMismatch(column: "geometry", expected: "packed polygons", sql: nil)
    }
    return Area(
      id: try row.get("id"), name: try row.get("name"), kind: try row.get("kind"),
      population: try row.get("population"), polygons: polygons)
  }

  // MARK: Incidence

  /// Figures older than this many days are said to be old: the phase may have changed.
  public static let staleAfterDays = 14

  public struct Stat: Equatable, Sendable {
    public let incidence: Double?
    public let asOf: String?
  }

  public func replaceStats(_ stats: [String: Stat]) throws {
    try db.transaction { db in
      try db.execute("DELETE FROM area_stat")
      for (id, stat) in stats.sorted(by: { $0.key < $1.key }) {
        try db.execute(
          "INSERT INTO area_stat (area_id, incidence, as_of, imported_at) VALUES (?, ?, ?, ?)", id, stat.incidence,
          stat.asOf, now)
      }
    }
  }

  public func stat(_ areaID: String) throws -> Stat? {
    try db.queryFirst("SELECT incidence, as_of FROM area_stat WHERE area_id = ?", areaID) {
      Stat(incidence: try $0.get(0), asOf: try $0.get(1))
    }
  }

  public func allStats() throws -> [String: Stat] {
    Dictionary(
      uniqueKeysWithValues: try db.query("SELECT area_id, incidence, as_of FROM area_stat") {
        (try $0.get(0, as: String.self), Stat(incidence: try $0.get(1), asOf: try $0.get(2)))
      })
  }

  // MARK: Phases

  public func scale() throws -> PhaseScale {
    guard let text = try db.scalar(String.self, "SELECT value FROM area_setting WHERE key = 'thresholds'") else {
      return .bavarian
    }
    return PhaseScale(thresholds: text.split(separator: ",").compactMap { Double($0) }) ?? .bavarian
  }

  public func setScale(_ scale: PhaseScale) throws {
    try db.execute(
      "INSERT OR REPLACE INTO area_setting (key, value) VALUES ('thresholds', ?)",
      scale.thresholds.map { String($0) }.joined(separator: ","))
  }
}
