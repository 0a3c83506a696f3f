import Replication
import Storage

extension AreaStore {
  public static let areas = Table(
    "area",
    comment: """
      Districts: reference data shared by the accounts on this device; the geometry packed as
      float64 [polygons, rings, points, lon, lat, ...].
      """,
    [
      .text("id", "PRIMARY KEY"), .text("name", "NOT NULL"), .text("kind"), .integer("population"),
      .blob("geometry", "NOT NULL"),
    ])
  /// An R*Tree of the districts' boxes: a virtual table, so no `Table`.
  public static let createBoxes = "CREATE VIRTUAL TABLE area_box USING rtree(id, min_lon, max_lon, min_lat, max_lat);"

  public static let stats = Table(
    "area_stat", comment: "The latest incidence per district.",
    [.text("area_id", "PRIMARY KEY"), .real("incidence"), .text("as_of"), .text("imported_at", "NOT NULL")])

  public static let settings = Table(
    "area_setting", comment: "Phase thresholds.", [.text("key", "PRIMARY KEY"), .text("value", "NOT NULL")])

  public static let watches = Table(
    "area_watch", comment: "Watched places (synced).",
    Watch.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"])

  public static let watchStates = Table(
    "area_watch_state", comment: "This device's last seen phase of each watched place.",
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("watch_id", "NOT NULL"),
      .text("phase"), .text("checked_at", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, watch_id)"], withoutRowID: true)

  public static let notices = Table(
    "area_notice", comment: "The phase changes this device noticed.",
    [
      .integer("id", "PRIMARY KEY"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("watch_id", "NOT NULL"), .text("label", "NOT NULL"), .text("from_phase"), .text("to_phase"),
      .text("at", "NOT NULL"),
    ], indexes: ["area_notice_at": "account_id, at"])
}

extension Dataset {
  public static let areaWatch = Dataset(AreaStore.watches, rules: AreaStore.Watch.shape.rules)
}
