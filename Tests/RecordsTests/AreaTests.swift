import Foundation
import Storage
import Testing

@testable import Records
@testable import Views

@Suite struct AreaTests {
  let t: TestAccount
  let store: AreaStore
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  init() throws {
    t = try TestAccount()
    store = AreaStore(db: t.db, account: t.account, now: t.local("2020-10-16 09:00"))
  }

  static let germany: GeoJSONReader.Result = {
    let data = try! Data(contentsOf: URL(fileURLWithPath: fixtures + "/geo/germany-districts.geojson"))
    return try! GeoJSONReader.read(data, file: "germany.geojson", idProperty: "RS", nameProperty: "GEN")
  }()

  func importGermany() throws { try store.replaceAreas(Self.germany.areas) }

  @Test func theWholeGermanyFileImports() throws {
    #expect(Self.germany.areas.count == 400)
    #expect(Self.germany.skippedCount == 0)
    #expect(Self.germany.areas.filter { $0.polygons.count > 1 }.count == 65)
    #expect(
      Self.germany.areas.filter { $0.polygons.contains { $0.rings.count > 1 } }.count == 53, "districts with holes")
    try importGermany()
    #expect(try store.areaCount() == 400)
  }

  @Test func knownPlacesAndPlacesOutside() throws {
    try importGermany()
    let locator = Locator(areas: try store.allAreas())
    let places: [(String, Double, Double, String?)] = [
      ("Marienplatz", 48.1374, 11.5755, "09162"),
      ("Regensburg cathedral, in the city and not the Landkreis around it", 49.0195, 12.0979, "09362"),
      ("Lake Constance", 47.60, 9.40, nil),
      ("Paris", 48.8566, 2.3522, nil),
      // Borders simplified independently overlap: Kiel (01002) and Rendsburg-Eckernförde (01058)
      // both contain this point; the lower key answers, every time.
      ("an overlap", 54.326721667141925, 10.086436955145412, "01002"),
    ]
    for (name, lat, lon, expected) in places {
      let p = GeoPoint(lon: lon, lat: lat)
      #expect(try store.locate(p)?.id == expected, "\(name) through the R*Tree")
      #expect(locator.locate(p)?.id == expected, "\(name) through the grid")
    }
    #expect(try store.locate(GeoPoint(lon: 11.5755, lat: 48.1374))?.name == "München")
    // The seed swapped them: latitude where longitude belongs lands nowhere.
    #expect(try store.locate(GeoPoint(lon: 48.1374, lat: 11.5755)) == nil)
  }

  @Test func holesAreNotInside() {
    let square = [
      GeoPoint(lon: 0, lat: 0), GeoPoint(lon: 10, lat: 0), GeoPoint(lon: 10, lat: 10), GeoPoint(lon: 0, lat: 10),
      GeoPoint(lon: 0, lat: 0),
    ]
    let hole = [
      GeoPoint(lon: 4, lat: 4), GeoPoint(lon: 6, lat: 4), GeoPoint(lon: 6, lat: 6), GeoPoint(lon: 4, lat: 6),
      GeoPoint(lon: 4, lat: 4),
    ]
    let area = Area(id: "x", name: "x", kind: nil, population: nil, polygons: [GeoPolygon(rings: [square, hole])])
    #expect(area.contains(GeoPoint(lon: 2, lat: 2)))
    #expect(!area.contains(GeoPoint(lon: 5, lat: 5)))
    #expect(area.contains(GeoPoint(lon: 10, lat: 5)), "on the border counts as inside")
    #expect(area.contains(GeoPoint(lon: 4, lat: 5)), "the hole's edge belongs to the district")
    #expect(!area.contains(GeoPoint(lon: 11, lat: 5)))
  }

  @Test func otherGeometriesAreSkippedAndCounted() throws {
    let json = """
      {"type":"FeatureCollection","features":[
       {"type":"Feature","properties":{"RS":"1","GEN":"One"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
       {"type":"Feature","properties":{"RS":"2","GEN":"Point"},"geometry":{"type":"Point","coordinates":[0,0]}},
       {"type":"Feature","properties":{"RS":"3"},"geometry":null},
       {"type":"Feature","properties":{"GEN":"no key"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
       {"type":"Feature","properties":{"RS":"5","GEN":"Two"},"geometry":{"type":"MultiPolygon","coordinates":[[[[2,2],[3,2],[3,3],[2,2]]]]}}
      ]}
      """
    let result = try GeoJSONReader.read(Data(json.utf8), file: "f", idProperty: "RS", nameProperty: "GEN")
    #expect(result.areas.map(\.id) == ["1", "5"])
    #expect(result.skipped == ["Point geometry": 1, "no geometry": 1, "no RS property": 1])
  }

  @Test(arguments: [
    ("not json", "is not JSON"),
    (#"{"type":"FeatureCollection","features":{"a":1}}"#, "FeatureCollection"),
    (
      #"{"type":"FeatureCollection","features":[{"properties":{"RS":"1"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}]}"#,
      "not closed"
    ),
    (
      #"{"type":"FeatureCollection","features":[{"properties":{"RS":"1"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,NaN],[0,0]]]}}]}"#,
      "is not JSON"
    ),
    (
      #"{"type":"FeatureCollection","features":[{"properties":{"RS":"1"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,200],[1,1],[0,0]]]}}]}"#,
      "latitude"
    ),
    (
      #"{"type":"FeatureCollection","features":[{"properties":{"RS":"1"},"geometry":{"type":"Polygon","coordinates":[[0,0],[1,0],[1,1],[0,0]]}}]}"#,
      "position"
    ),
  ])
  func malformedGeoJSONIsRefusedAndNothingChanges(json: String, mentioning: String) throws {
    let ring = [GeoPoint(lon: 0, lat: 0), GeoPoint(lon: 1, lat: 0), GeoPoint(lon: 1, lat: 1), GeoPoint(lon: 0, lat: 0)]
    try store.replaceAreas([
      Area(id: "old", name: "Old", kind: nil, population: nil, polygons: [GeoPolygon(rings: [ring])])
    ])
    let error = #expect(throws: AreaError.self) {
      try GeoJSONReader.read(Data(json.utf8), file: "bad.geojson", idProperty: "RS", nameProperty: "GEN")
    }
    #expect(error?.description.contains(mentioning) == true, "\(String(describing: error))")
    #expect(try store.areaCount() == 1)
  }

  @Test(arguments: [
    (0.0, Phase.green), (35, .green), (35.01, .yellow), (50, .yellow), (50.5, .red), (100, .red), (100.01, .darkRed),
  ])
  func phaseBoundariesHaveNoGaps(incidence: Double, phase: Phase) {
    #expect(PhaseScale.bavarian.phase(incidence) == phase)
  }

  @Test func unknownIncidenceIsNoPhase() {
    #expect(PhaseScale.bavarian.phase(nil) == nil)
    #expect(PhaseScale.bavarian.phase(-1) == nil)
    #expect(PhaseScale(thresholds: [50, 35, 100]) == nil)
    for phase in Phase.allCases {
      for language in Guidelines.Language.allCases { #expect(Guidelines.lines(phase, language).count == 3) }
    }
  }

  @Test func statsFromBothRKITablesWithBerlinCombined() throws {
    try importGermany()
    let districts = Set(try store.allAreas().map(\.id))
    let october = try AreaStats.read(
      try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/rki/RKI_Corona_Landkreise_2020-10-15.csv")),
      file: "oct.csv", key: "RS", incidenceProperty: "cases7_per_100k", districts: districts)
    #expect(october.rows == 412)
    #expect(october.combined["11000"]?.count == 12)
    #expect(october.unmatched == ["16056"], "Eisenach is in the table but not in the geometry")
    let berlin = try #require(october.stats["11000"]?.incidence)
    #expect(abs(berlin - 71.1815) < 0.001, "the boroughs weighted by population: \(berlin)")
    #expect(october.stats["09162"]?.asOf == "2020-10-15")
    #expect(october.stats["096620000000"] != nil, "Schweinfurt's 12-digit key in the geometry matches 09662")
    #expect(october.stats.count == 400)

    let april = try AreaStats.read(
      try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/rki/RKI_Corona_Landkreise_2020-04-29.csv")),
      file: "apr.csv", key: "RS", incidenceProperty: "cases7_per_100k", districts: districts)
    #expect(april.rows > 400)
    #expect(april.stats["09162"]?.asOf == "2020-04-29")

    // Bavaria on 15 October 2020: 69 green, 16 yellow, 11 red, none dark red.
    try store.replaceStats(october.stats)
    let bavaria = try store.allAreas().filter { $0.id.hasPrefix("09") }
    var counts: [Phase: Int] = [:]
    for area in bavaria { counts[PhaseScale.bavarian.phase(try store.stat(area.id)?.incidence)!, default: 0] += 1 }
    #expect(counts == [.green: 69, .yellow: 16, .red: 11])
  }

  @Test func aWatchedPlaceReportsEachChangeOnce() throws {
    try importGermany()
    let munich = GeoPoint(lon: 11.5755, lat: 48.1374)
    try store.replaceStats(["09162": .init(incidence: 30, asOf: "2020-10-14")])
    try store.addWatch(label: "Office", point: munich)
    #expect(try store.check().changes.isEmpty, "the phase when added is the baseline")
    try store.replaceStats(["09162": .init(incidence: 55, asOf: "2020-10-15")])
    let changes = try store.check().changes
    #expect(changes.map { "\($0.watch.label) \($0.from!) \($0.to!)" } == ["Office green red"])
    #expect(try store.check().changes.isEmpty, "reported once")
    let engine = ReminderEngine(db: t.db, account: t.account, now: t.local("2020-10-16 09:00"), calendar: t.calendar)
    let reminders = try engine.reminders(from: t.local("2020-10-16 00:00"), to: t.local("2020-10-17 00:00"))
    #expect(reminders.map(\.title) == ["Office: phase now red"])
  }
}
