import Foundation
import Replication
import Storage

extension AreaStore {
  public struct Watch: Equatable, Sendable {
    public var id: String
    public var label: String
    public var point: GeoPoint
  }

  public struct Change: Equatable, Sendable {
    public let watch: Watch
    public let from: Phase?
    public let to: Phase?
  }

  public func watches() throws -> [Watch] {
    try db.query(
      "SELECT \(Self.watches.list()) FROM area_watch WHERE account_id = ? ORDER BY label, id", account.id,
      row: Watch.shape.record)
  }

  @discardableResult
  public func addWatch(label: String, point: GeoPoint) throws -> Watch {
    let label = label.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !label.isEmpty, !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw AreaError.emptyLabel
    }
    let watch = Watch(id: UUID().uuidString.lowercased(), label: label, point: point)
    try db.transaction { _ in
      try replica.write(.areaWatch, id: watch.id, Watch.shape.fields(watch, Watch.synced))
      // The phase now is the baseline: only later changes are news.
      try saveState(watch, phase: try phase(at: point))
    }
    return watch
  }

  static let watchLookup = RecordLookup(
    kind: "watched place", listCommand: "vital area watch list", table: "area_watch")

  /// A watched place by its label (any case) or its id (or an unambiguous prefix).
  public func findWatch(_ key: String) throws -> Watch {
    let all = try watches()
    if let byLabel = all.first(where: { $0.label.lowercased() == key.lowercased() }) { return byLabel }
    let id: String
    do {
      id = try Self.watchLookup.id(key, account: account.id, in: db)
    } catch RecordLookup.Failure.notFound {
      throw AreaError.watchNotFound(key)
    }
    guard let watch = all.first(where: { $0.id == id }) else { throw AreaError.watchNotFound(key) }
    return watch
  }

  /// Renames a watched place or moves it; a moved place takes the phase there now as its new
  /// baseline, so the move itself is no news.
  public func editWatch(_ key: String, label: String?, point: GeoPoint?) throws -> Watch {
    let old = try findWatch(key)
    var watch = old
    if let label {
      watch.label = label.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !watch.label.isEmpty,
        !watch.label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else { throw AreaError.emptyLabel }
    }
    watch.point = point ?? old.point
    let fields = Watch.shape.changes(from: old, to: watch, Watch.synced)
    guard !fields.isEmpty else { return watch }
    try db.transaction { _ in
      try replica.write(.areaWatch, id: watch.id, fields)
      if watch.point != old.point { try saveState(watch, phase: try phase(at: watch.point)) }
    }
    return watch
  }

  public func removeWatch(_ key: String) throws -> Watch {
    let watch = try findWatch(key)
    try db.transaction { db in
      try replica.delete(.areaWatch, id: watch.id)
      try db.execute("DELETE FROM area_watch_state WHERE account_id = ? AND watch_id = ?", account.id, watch.id)
    }
    return watch
  }

  /// The phase at a point now, or nil when no district or no incidence is known there.
  public func phase(at point: GeoPoint, scale: PhaseScale? = nil) throws -> Phase? {
    let area: Area?
    do {
      area = try locate(point)
    } catch AreaError.noDistricts {
      return nil
    }
    guard let area else { return nil }
    return try (scale ?? self.scale()).phase(try stat(area.id)?.incidence)
  }

  /// Compares each watched place's phase with the one seen at the last check and reports each
  /// change once; the change is also kept as a notice for `vital reminders`.
  public func check() throws -> (changes: [Change], current: [(Watch, Phase?)]) {
    try db.transaction { db in
      var changes: [Change] = []
      var current: [(Watch, Phase?)] = []
      let scale = try self.scale()
      for watch in try watches() {
        let phase = try self.phase(at: watch.point, scale: scale)
        current.append((watch, phase))
        let seen = try db.queryFirst(
          "SELECT phase FROM area_watch_state WHERE account_id = ? AND watch_id = ?", account.id, watch.id
        ) { row in try row.get(0, as: String?.self).flatMap(Phase.init(rawValue:)) }
        if let seen, seen != phase {
          changes.append(Change(watch: watch, from: seen, to: phase))
          try db.execute(
            "INSERT INTO area_notice (account_id, watch_id, label, from_phase, to_phase, at) VALUES (?, ?, ?, ?, ?, ?)",
            account.id, watch.id, watch.label, seen?.rawValue, phase?.rawValue, now)
        }
        try saveState(watch, phase: phase)
      }
      return (changes, current)
    }
  }

  func saveState(_ watch: Watch, phase: Phase?) throws {
    try db.execute(
      "INSERT OR REPLACE INTO area_watch_state (account_id, watch_id, phase, checked_at) VALUES (?, ?, ?, ?)",
      account.id, watch.id, phase?.rawValue, now)
  }

  public struct Notice: Equatable, Sendable {
    public let id: Int64
    public let label: String
    public let from: String?
    public let to: String?
    public let at: Date
  }

  /// Phase changes noticed in `[from, to]`.
  public func notices(from: Date, to: Date) throws -> [Notice] {
    try db.query(
      """
      SELECT id, label, from_phase, to_phase, at FROM area_notice
      WHERE account_id = ? AND at >= ? AND at <= ? ORDER BY at, id
      """, account.id, from, to
    ) {
      Notice(
        id: try $0.get("id"), label: try $0.get("label"), from: try $0.get("from_phase"), to: try $0.get("to_phase"),
        at: try $0.get("at"))
    }
  }
}
