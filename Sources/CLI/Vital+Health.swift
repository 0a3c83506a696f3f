import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Interchange
import Records

extension Vital {
  struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "health",
      abstract: "Apple Health data: import an export, add samples, daily totals and trends, sources.",
      discussion: """
        Steps, distance, active energy and exercise count each moment once: where an iPhone and \
        an Apple Watch (or apps) both measured the same minutes, only the source ranked first \
        counts, as in the Health app. 'vital health sources' shows the ranking and changes it.
        """,
      subcommands: [
        Import.self, Add.self, List.self, Show.self, Edit.self, Delete.self, Summary.self, Trend.self, Sleep.self,
        Vitals.self, Workouts.self, Workout.self, Sources.self, Export.self,
      ])
  }
}

extension Vital.HealthCommand {
  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract:
        "Import the Health app's export.xml or export.zip, or Gadgetbridge's database (re-importing adds nothing).",
      discussion: """
        Apple Health's export is streamed, its workouts' routes with it. A Gadgetbridge \
        database (Data management > Export DB) is opened read-only and never changed: each \
        band's or watch's minutes become steps, heart rate and sleep, the device a watch among \
        your sources (docs/gadgetbridge.md).

        Examples:
          vital health import ~/Downloads/export.zip
          vital health import export.xml --json
          vital health import ~/Downloads/apple_health_export
          vital health import ~/Downloads/Gadgetbridge
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "export.xml, export.zip or the folder it was unpacked to, or Gadgetbridge's database")
    var file: String

    /// The file to read: `path` itself, or the `export.xml` in the folder an export.zip was
    /// unpacked to (its routes in `workout-routes/` beside it), as the route warning advises.
    static func exportFile(_ path: String) throws -> String {
      var info = stat()
      guard stat(path, &info) == 0 else {
        throw CLIError.cannotRead(path, reason: String(cString: strerror(errno)).lowercased())
      }
      if info.st_mode & S_IFMT == S_IFDIR {
        for inner in ["export.xml", "apple_health_export/export.xml"] {
          let candidate = (path as NSString).appendingPathComponent(inner)
          if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG { return candidate }
        }
        throw CLIError.cannotRead(
          path, reason: "a folder without export.xml; give export.zip, export.xml or the folder export.zip unpacked to")
      }
      guard info.st_mode & S_IFMT == S_IFREG else { throw CLIError.cannotRead(path, reason: "not a regular file") }
      return path
    }

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let file = try Self.exportFile(file)
      let head = FileHandle(forReadingAtPath: file).flatMap { try? $0.read(upToCount: 16) } ?? Data()
      if GadgetbridgeImport.isSQLite(head) { return try gadgetbridge(app, account.id) }
      if let first = head.first, ![UInt8(ascii: "<"), 0xEF, 0x50, 0x20, 0x09, 0x0A, 0x0D].contains(first) {
        throw CLIError.badOption(
          file, reason: "it is neither an Apple Health export (export.xml, export.zip) nor a Gadgetbridge database")
      }
      let bar = ProgressBar("import")
      let summary = try AppleHealthImport(db: app.db, accountID: account.id, now: app.now).run(path: file) {
        bar.update($0, of: $1)
      }
      bar.finish()
      let json = JSON.object([
        ("records", .int(summary.records)), ("inserted", .int(summary.inserted)),
        ("duplicates", .int(summary.duplicates)), ("updated", .int(summary.updated)),
        ("in_correlations", .int(summary.inCorrelations)), ("half_readings", .int(summary.halfReadings)),
        ("skipped", .int(summary.skipped)), ("invalid", .int(summary.invalid)),
        ("by_type", .object(summary.byType.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) })),
        ("routes", .int(summary.routes)), ("route_points", .int(summary.routePoints)),
        ("route_problems", .array(summary.routeProblems.map(JSON.string))),
      ])
      // A route the export names but that cannot be kept is the export's fault, not the
      // import's: the rest is in, and each such route is named once.
      for problem in summary.routeProblems { FileHandle.standardError.write(Data("warning: \(problem)\n".utf8)) }
      try app.output.show(json) {
        // A first import meets duplicates too: exports repeat samples, so "already there" misled.
        "imported \(HumanText.count(summary.records, "record")): \(summary.inserted) new"
          + (summary.duplicates > 0 ? ", \(summary.duplicates) kept already or repeated in the file" : "")
          + (summary.updated > 0 ? ", \(summary.updated) activity days updated" : "")
          + (summary.skipped > summary.invalid + summary.halfReadings
            ? ", \(summary.skipped - summary.invalid - summary.halfReadings) skipped (no type or unreadable dates)"
            : "")
          + (summary.halfReadings > 0
            ? ", \(HumanText.count(summary.halfReadings, "blood pressure reading")) left out: systolic or diastolic missing"
            : "")
          + (summary.invalid > 0
            ? ", \(summary.invalid) left out for values no health record holds (negative, infinite or absurdly large)"
            : "")
          + (summary.routes > 0
            ? "; \(HumanText.count(summary.routes, "workout route")) (\(HumanText.count(summary.routePoints, "point")))"
            : "")
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a sample by hand.",
      discussion: """
        Examples:
          vital health add --type steps --value 4200
          vital health add --type distance --value 5km --at "yesterday 18:00"
          vital health add --type energy --value 320kcal
          vital health add --type exercise --value 45min

        The old names distance-m, active-energy-kcal and exercise-min are still taken.
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "steps, distance, energy or exercise.") var type: HealthTotals.Measure
    @Option(help: "The amount with its unit: 4200, 5km, 3 mi, 320kcal, 45min (bare: steps, m, kcal, min).")
    var value: String
    @Option(help: "When (default: now).") var at: DateTimeArgument?

    func run() async throws {
      let app = try App(global)
      let store = HealthStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
      let when = try at.map(app.instant) ?? app.now
      let amount = try type.amount(value, option: "--value")
      let id = try store.add(type: type.rawValue, value: amount, at: when)
      let human = HumanText(now: app.now, calendar: app.calendar)
      try app.output.show(
        .object([
          ("id", .string(id)), ("type", .string(type.rawValue)), ("value", .double(amount)),
          ("unit", .string(type.unit)), ("at", app.iso(when)),
        ])
      ) { "added \(type.text(amount)) (\(type.rawValue)) at \(human.time(when)) (id \(HumanText.shortID(id)))" }
    }
  }

  struct Summary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "summary", abstract: "Totals for a day: steps, distances, active energy, exercise.",
      discussion: """
        Examples:
          vital health summary
          vital health summary --date 2026-03-29 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: LocalDate?

    func run() async throws {
      let app = try App(global)
      let store = HealthStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
      let day = date ?? app.today
      let t = try store.totals(on: day)
      try app.output.show(HealthJSON.totals(t, day: day)) {
        let human = HumanText(now: app.now, calendar: app.calendar)
        // A quantity no source measured that day is "no data", not 0.
        func show(_ value: Double?, _ text: (Double) -> String) -> String { value.map(text) ?? "– (no data)" }
        var lines = [
          "\(human.day(day)) (\(day))", "  steps                 \(show(t.value(.steps)) { $0.wholeText })",
          "  walking + running     \(show(t.value(.distance)) { String(format: "%.2f km", $0 / 1000) })",
          "  running (workouts)    \(show(t.running) { String(format: "%.2f km", $0 / 1000) })",
          "  active energy         \(show(t.value(.energy)) { String(format: "%.0f kcal", $0) })",
          "  exercise              \(show(t.value(.exercise)) { String(format: "%.0f min", $0) })",
        ]
        // Where the steps came from, when more than one source counted.
        let counted = (t.sources[.steps] ?? [:]).filter { $0.value >= 0.5 }
        if counted.count > 1 {
          lines.insert(
            "    from "
              + counted.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
              .map { "\($0.key) \($0.value.wholeText)" }.joined(separator: ", "), at: 2)
        }
        if let a = t.activity {
          lines.append(
            "  rings: move \(HealthJSON.ratio(a.moveKcal ?? a.moveMinutes, a.moveKcalGoal ?? a.moveMinutesGoal)), exercise \(HealthJSON.ratio(a.exerciseMinutes, a.exerciseGoal)), stand \(HealthJSON.ratio(a.standHours, a.standGoal))"
          )
        }
        return lines.joined(separator: "\n")
      }
    }
  }
}

enum HealthJSON {
  static func number(_ d: Double?) -> JSON { d.map { JSON.double(($0 * 100).rounded() / 100) } ?? .null }

  /// `4200`, `3.5`: at most two decimals, none when whole.
  static func text(_ d: Double) -> String { number(d).serialized() }

  static func ratio(_ value: Double?, _ goal: Double?) -> String {
    "\(value.map { String(format: "%.0f", $0) } ?? "-")/\(goal.map { String(format: "%.0f", $0) } ?? "-")"
  }

  static func activity(_ a: HealthStore.ActivityDay?) -> JSON {
    guard let a else { return .null }
    return .object([
      ("move_kcal", number(a.moveKcal)), ("move_kcal_goal", number(a.moveKcalGoal)),
      ("move_minutes", number(a.moveMinutes)), ("move_minutes_goal", number(a.moveMinutesGoal)),
      ("exercise_minutes", number(a.exerciseMinutes)), ("exercise_goal", number(a.exerciseGoal)),
      ("stand_hours", number(a.standHours)), ("stand_goal", number(a.standGoal)),
    ])
  }

  static func totals(_ t: HealthStore.DayTotals, day: LocalDate) -> JSON {
    .object([
      ("date", .string(day.description)), ("steps", number(t.value(.steps))),
      ("walking_running_distance_m", number(t.value(.distance))), ("running_distance_m", number(t.running)),
      ("active_energy_kcal", number(t.value(.energy))), ("exercise_minutes", number(t.value(.exercise))),
      ("activity", activity(t.activity)),
      (
        "sources",
        .object(
          [
            ("steps", .steps), ("walking_running_distance_m", .distance), ("active_energy_kcal", .energy),
            ("exercise_minutes", .exercise),
          ].map { key, measure in (key, sources(t.sources[measure] ?? [:])) })
      ),
    ])
  }

  /// `[{"name","counted"}]`, the source counted most first.
  static func sources(_ counted: [String: Double]) -> JSON {
    .array(
      counted.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
        .object([("name", .string($0.key)), ("counted", number($0.value))])
      })
  }
}
