import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Interchange
import Records
import Storage

extension Vital.HealthCommand {
  struct Workouts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "workouts", abstract: "Your workouts: time, distance, energy, pace, heart rate, climb.",
      discussion: """
        One row per workout, oldest first. One activity recorded by two sources at once (a \
        watch and a phone app tracking the same run) is listed once, from the source ranked \
        first in 'vital health sources', and names the others. Pace is from the workout's \
        duration and distance; heart rate is the mean of the readings taken during it; the \
        climb is added up along its route. 'vital health workout ID' shows one, and with --gpx \
        writes its route.

        Examples:
          vital health workouts
          vital health workouts --type running --days 90
          vital health workouts --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this activity: running, walking, cycling, hiking, swimming, ...") var type: String?
    @Option(help: "Only the workouts of the last N days.") var days: Int?

    func validate() throws {
      if let days, !(1...36_600).contains(days) { throw ValidationError("--days must be from 1 to 36600") }
      if let type, type.isEmpty || type.count > 100 {
        throw ValidationError("--type takes an activity such as running")
      }
    }

    func run() async throws {
      let app = try App(global)
      let store = HealthStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
      let from = days.map { LocalDate(app.now, in: app.calendar).adding(days: -($0 - 1)).start(in: app.calendar) }
      let workouts = try store.workouts(type: type.map(WorkoutActivity.type), from: from)
      // An activity none of the workouts has may be a typo (`run`): the empty answer names those there are.
      let others = workouts.isEmpty && type != nil ? try store.workoutTypes() : []
      try app.output.show(.array(workouts.map { Self.json($0, app) })) {
        guard !workouts.isEmpty else {
          return type == nil && days == nil
            ? "No workouts yet: 'vital health import' brings them from Apple Health, with their routes."
            : "No \(type.map { WorkoutActivity.name(WorkoutActivity.type($0)) + " " } ?? "")workouts"
              + (days.map { " in the last \(HumanText.count($0, "day"))" } ?? "")
              + (others.isEmpty || others.contains(WorkoutActivity.type(type ?? ""))
                ? "." : "; yours are " + others.map(WorkoutActivity.name).joined(separator: ", ") + ".")
        }
        return Self.table(workouts, calendar: app.calendar)
      }
    }

    static func json(_ w: HealthStore.WorkoutDetail, _ app: App) -> JSON {
      let number = { (value: Double?) in value.map { JSON.double(($0 * 10).rounded() / 10) } ?? .null }
      return .object([
        ("id", .string(w.workout.id)), ("type", .string(w.workout.type)),
        ("activity", .string(WorkoutActivity.name(w.workout.type))), ("start", app.iso(w.workout.start)),
        ("end", app.iso(w.workout.end)), ("duration_s", number(w.workout.durationSeconds)),
        ("distance_m", number(w.workout.distanceMetres)), ("energy_kcal", number(w.workout.energyKcal)),
        ("pace_s_per_km", number(w.paceSecondsPerKm)), ("heart_rate_bpm", number(w.heartRate)),
        ("ascent_m", number(w.ascentMetres)), ("route_points", .int(w.routePoints)),
        ("source", JSON.optional(w.workout.source)), ("also_recorded_by", .array(w.alsoBy.map(JSON.string))),
      ])
    }

    /// `1:02:03` or `31:02`.
    static func clock(_ seconds: Double?) -> String {
      guard let seconds, seconds.isFinite else { return "–" }
      let s = Int(seconds.rounded())
      return s >= 3600
        ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    static func table(_ workouts: [HealthStore.WorkoutDetail], calendar: Calendar) -> String {
      let header =
        "id                 date        start  activity            time      distance   energy    pace       heart  climb  source"
      let rows = workouts.map { w -> String in
        let c = calendar.dateComponents([.hour, .minute], from: w.workout.start)
        let pad = { (text: String, n: Int) in HumanText.padded(text, to: n) }
        // The start's second and four characters more: what `health workout` needs, short of
        // two workouts begun in the same second with the same four.
        var line = pad(String(w.workout.id.prefix(AppleHealthImport.shownID)), AppleHealthImport.shownID) + "  "
        line += pad(LocalDate(w.workout.start, in: calendar).description, 10) + "  "
        line += String(format: "%02d:%02d", c.hour!, c.minute!) + "  "
        let activity = WorkoutActivity.name(w.workout.type)
        line += pad(activity.count > 18 ? activity.prefix(17) + "…" : activity, 18) + "  "
        line += pad(clock(w.workout.durationSeconds ?? w.workout.end.timeIntervalSince(w.workout.start)), 8) + "  "
        line += pad(w.workout.distanceMetres.map { String(format: "%.2f km", $0 / 1000) } ?? "–", 9) + "  "
        line += pad(w.workout.energyKcal.map { String(format: "%.0f kcal", $0) } ?? "–", 8) + "  "
        line += pad(w.paceSecondsPerKm.map { clock($0) + " /km" } ?? "–", 9) + "  "
        line += pad(w.heartRate.map { String(format: "%.0f", $0) } ?? "–", 5) + "  "
        line += pad(w.ascentMetres.map { String(format: "%.0f m", $0) } ?? "–", 5) + "  "
        line += w.workout.source ?? "–"
        if !w.alsoBy.isEmpty { line += " (also \(w.alsoBy.joined(separator: ", ")))" }
        return line
      }
      return ([header] + rows).joined(separator: "\n")
    }
  }

  struct Workout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "workout", abstract: "One workout, and its route as GPX (--gpx).",
      discussion: """
        Examples:
          vital health workout wo-06ad6f55c-1a2b
          vital health workout wo-06ad6f55c-1a2b --gpx run.gpx
          vital health workout wo-06ad6f55c-1a2b --gpx - | gpxinfo -
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The workout's id, or the start of it that 'vital health workouts' shows.")
    var id: String
    @Option(help: "Write the route as GPX 1.1 to this file ('-': standard output).") var gpx: String?

    func run() async throws {
      let app = try App(global)
      let store = HealthStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
      let detail = try store.workout(id)
      guard let gpx else {
        return try app.output.show(Workouts.json(detail, app)) { Self.text(detail, app) }
      }
      guard let routeID = detail.routeWorkoutID else { throw HealthStore.RouteFailure.none }
      let points = try store.route(workoutID: routeID)
      let sink = try OutputSink(path: gpx, app: app)
      let name = "\(WorkoutActivity.name(detail.workout.type)) \(LocalDate(detail.workout.start, in: app.calendar))"
      try GPXDocument.write(points, name: name, type: WorkoutActivity.name(detail.workout.type)) { try sink.write($0) }
      try sink.finish()
      guard gpx != "-" else { return }
      try app.output.show(
        .object([("id", .string(detail.workout.id)), ("points", .int(points.count)), ("file", .string(gpx))])
      ) { "wrote the route's \(HumanText.count(points.count, "point")) to \(gpx)" }
    }

    static func text(_ w: HealthStore.WorkoutDetail, _ app: App) -> String {
      let human = HumanText(now: app.now, calendar: app.calendar)
      var lines = [
        "\(WorkoutActivity.name(w.workout.type)), \(human.span(w.workout.start, w.workout.end))",
        "  time       \(Workouts.clock(w.workout.durationSeconds ?? w.workout.end.timeIntervalSince(w.workout.start)))",
      ]
      if let metres = w.workout.distanceMetres { lines.append(String(format: "  distance   %.2f km", metres / 1000)) }
      if let kcal = w.workout.energyKcal { lines.append(String(format: "  energy     %.0f kcal", kcal)) }
      if let pace = w.paceSecondsPerKm { lines.append("  pace       \(Workouts.clock(pace)) /km") }
      if let bpm = w.heartRate { lines.append(String(format: "  heart      %.0f bpm on average", bpm)) }
      if let ascent = w.ascentMetres { lines.append(String(format: "  climb      %.0f m", ascent)) }
      lines.append(
        "  route      "
          + (w.routePoints > 0 ? "\(HumanText.count(w.routePoints, "point")) (--gpx FILE writes it)" : "none"))
      lines.append("  source     \(w.workout.source ?? "–")")
      lines.append("  id         \(w.workout.id)")
      return lines.joined(separator: "\n")
    }
  }
}
