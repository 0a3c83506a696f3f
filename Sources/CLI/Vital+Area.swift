import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital {
  struct AreaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "area",
      abstract: "Districts, incidence figures, traffic-light phases and their guidelines, watched places.",
      subcommands: [Import.self, Stats.self, Locate.self, Phases.self, Watch.self],
      aliases: ["areas", "place", "places"])
  }
}

extension Guidelines.Language: ExpressibleByArgument {}

extension Context where Store == AreaStore {
  static func point(lat: Double, lon: Double) throws -> GeoPoint {
    guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else {
      throw ValidationError("--lat must be within -90..90 and --lon within -180..180")
    }
    return GeoPoint(lon: lon, lat: lat)
  }

  /// Figures older than this are said to be old: a phase from last month is no guide for today.
  static let staleAfterDays = AreaStore.staleAfterDays

  /// How many days old the figures are (from their `as_of` day to today).
  func age(_ stat: AreaStore.Stat?) -> Int? {
    guard let text = stat?.asOf, let day = LocalDate(String(text.prefix(10))) else { return nil }
    return day.days(to: app.today)
  }

  func json(area: Area?, stat: AreaStore.Stat?, phase: Phase?, language: Guidelines.Language) -> JSON {
    .object([
      ("area", area.map { .object([("id", .string($0.id)), ("name", .string($0.name))]) } ?? .null),
      ("incidence", stat?.incidence.map { JSON.double(($0 * 100).rounded() / 100) } ?? .null),
      ("as_of", .optional(stat?.asOf)), ("age_days", age(stat).map { JSON.int($0) } ?? .null),
      ("phase", .string(phase?.rawValue ?? "unknown")),
      ("guidelines", .array(phase.map { Guidelines.lines($0, language).map(JSON.string) } ?? [])),
    ])
  }
}

extension Vital.AreaCommand {
  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import", abstract: "Import district polygons from GeoJSON; replaces the districts imported before.",
      discussion: """
        Examples:
          vital area import districts.geojson
          vital area import kreise.geojson --id-property AGS --name-property GEN
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A GeoJSON FeatureCollection of Polygon and MultiPolygon features.") var file: String
    @Option(help: "The property holding a district's key.") var idProperty = "RS"
    @Option(help: "The property holding its name.") var nameProperty = "GEN"

    func run() async throws {
      let c = try AreaContext(global)
      let data = try InputFile.read(file, limit: 64 << 20)
      let name = (file as NSString).lastPathComponent
      let result = try GeoJSONReader.read(data, file: name, idProperty: idProperty, nameProperty: nameProperty)
      guard !result.areas.isEmpty else { throw AreaError.noAreas(name) }
      try c.store.replaceAreas(result.areas)
      let json = JSON.object([
        ("imported", .int(result.areas.count)), ("skipped", .int(result.skippedCount)),
        ("skipped_by_reason", .object(result.skipped.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) })),
      ])
      try c.app.output.show(json) {
        "imported \(result.areas.count) districts"
          + (result.skippedCount > 0
            ? "; skipped \(result.skippedCount) features ("
              + result.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")"
            : "")
      }
    }
  }

  struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "stats", abstract: "Import incidence figures from an RKI-style CSV or GeoJSON properties.",
      discussion: """
        Examples:
          vital area stats RKI_Corona_Landkreise.csv
          vital area stats landkreise.geojson --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The RKI district table (CSV) or a GeoJSON with the figures as properties.") var file: String
    @Option(help: "The column or property holding the district key.") var key = "RS"
    @Option(help: "The column or property holding the 7-day incidence per 100,000.") var incidenceProperty =
      "cases7_per_100k"

    func run() async throws {
      let c = try AreaContext(global)
      let districts = Set(try c.store.allAreas().map(\.id))
      guard !districts.isEmpty else { throw AreaError.noDistricts }
      let result = try AreaStats.read(
        try InputFile.read(file, limit: 64 << 20), file: (file as NSString).lastPathComponent, key: key,
        incidenceProperty: incidenceProperty, districts: districts)
      try c.store.replaceStats(result.stats)
      let missing = districts.subtracting(result.stats.keys).sorted()
      let json = JSON.object([
        ("rows", .int(result.rows)), ("districts", .int(result.stats.count)),
        (
          "combined",
          .object(result.combined.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(JSON.string))) })
        ),
        ("unmatched", .array(result.unmatched.map(JSON.string))),
        ("districts_without_figures", .array(missing.map(JSON.string))),
      ])
      try c.app.output.show(json) {
        var lines = [
          "\(HumanText.count(result.rows, "row")): figures for \(result.stats.count) of \(districts.count) districts"
        ]
        for (district, keys) in result.combined.sorted(by: { $0.key < $1.key }) {
          lines.append("combined into \(district) (weighted by population): \(keys.joined(separator: ", "))")
        }
        if !result.unmatched.isEmpty {
          let shown = result.unmatched.prefix(12).joined(separator: ", ")
          let more = result.unmatched.count > 12 ? ", ... (--json lists all)" : ""
          lines.append("no district for \(result.unmatched.count) keys: \(shown)\(more)")
        }
        if !missing.isEmpty { lines.append("no figures for: \(missing.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
      }
    }
  }

  struct Locate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "locate", abstract: "The district of a place, its incidence, phase and guidelines.",
      discussion: """
        Examples:
          vital area locate --lat 48.1374 --lon 11.5755
          vital area locate --points places.csv --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Latitude in degrees (north positive).") var lat: Double?
    @Option(help: "Longitude in degrees (east positive).") var lon: Double?
    @Option(help: "A CSV of lat,lon[,label] rows: one result row per point.") var points: String?
    @Option(help: "Guidelines in en or de.") var lang: Guidelines.Language = .en

    func validate() throws {
      if points == nil, lat == nil || lon == nil { throw ValidationError("give --lat and --lon, or --points FILE") }
      if points != nil, lat != nil || lon != nil { throw ValidationError("give either --lat/--lon or --points") }
    }

    func run() async throws {
      let c = try AreaContext(global)
      if let points { return try PointsLookup.run(c, file: points, language: lang) }
      let point = try AreaContext.point(lat: lat!, lon: lon!)
      guard let area = try c.store.locate(point) else { throw AreaError.outside(lat: point.lat, lon: point.lon) }
      let stat = try c.store.stat(area.id)
      let phase = try c.store.scale().phase(stat?.incidence)
      try c.app.output.show(c.json(area: area, stat: stat, phase: phase, language: lang)) {
        var lines = ["\(area.name)\(area.kind.map { " (\($0))" } ?? "")  [\(area.id)]"]
        if let incidence = stat?.incidence {
          lines.append(
            String(format: "7-day incidence %.1f per 100,000", incidence) + (stat?.asOf.map { " as of \($0)" } ?? ""))
        } else {
          lines.append("no incidence figures for this district; import them with 'vital area stats FILE'")
        }
        if let days = c.age(stat), days > AreaContext.staleAfterDays {
          lines.append(
            "these figures are \(days) days old; the phase may have changed since (import newer ones with 'vital area stats FILE')"
          )
        }
        if let phase {
          lines.append("phase: \(lang == .de ? phase.label.de : phase.label.en)")
          lines += Guidelines.lines(phase, lang).map { "  - \($0)" }
        } else {
          lines.append("phase: unknown")
        }
        return lines.joined(separator: "\n")
      }
    }
  }

  struct Phases: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "phases", abstract: "The phase thresholds in force; --thresholds changes them.",
      discussion: """
        Examples:
          vital area phases
          vital area phases --thresholds 35,50,100
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Upper bounds of green, yellow and red, e.g. 35,50,100.") var thresholds: String?
    @Option(help: "Guidelines in en or de.") var lang: Guidelines.Language = .en

    func run() async throws {
      let c = try AreaContext(global)
      if let thresholds {
        let values = thresholds.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.allSatisfy({ $0 != nil }), let scale = PhaseScale(thresholds: values.map { $0! }) else {
          throw AreaError.badThresholds
        }
        try c.store.setScale(scale)
      }
      let scale = try c.store.scale()
      func number(_ d: Double?) -> JSON { d.map { JSON.double($0) } ?? .null }
      let json = JSON.array(
        scale.ranges.map { phase, lower, upper in
          .object([
            ("phase", .string(phase.rawValue)), ("above", number(lower)), ("up_to", number(upper)),
            ("guidelines", .array(Guidelines.lines(phase, lang).map(JSON.string))),
          ])
        })
      try c.app.output.show(json) {
        scale.ranges.map { phase, lower, upper in
          let range =
            lower == nil
            ? "<= \(upper!.plainText)"
            : upper == nil ? "> \(lower!.plainText)" : "> \(lower!.plainText) and <= \(upper!.plainText)"
          return "\(phase.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(range)"
        }.joined(separator: "\n")
      }
    }
  }
}

extension Double {
  /// 35 rather than 35.0; 50.5 stays.
  var plainText: String { self == rounded() ? String(Int(self)) : String(self) }
}
