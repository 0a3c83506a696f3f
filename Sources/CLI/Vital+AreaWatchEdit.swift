import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension Vital.AreaCommand.Watch {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one watched place and its phase now.",
      discussion: """
        Examples:
          vital area watch show Home
          vital area watch show 3f2a --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its label or id (or the id's first characters).") var place: String

    func run() async throws {
      let c = try AreaContext(global)
      let watch = try c.store.findWatch(place)
      let phase = try c.store.phase(at: watch.point)
      try c.app.output.show(Vital.AreaCommand.Watch.json(watch, phase: phase)) {
        Vital.AreaCommand.Watch.table([(watch, phase)])
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Rename or move a watched place: only the given fields change.",
      discussion: """
        Fields: --label, --lat, --lon. A moved place starts from the phase where it is now.

        Examples:
          vital area watch edit Home --label "Old home"
          vital area watch edit 3f2a --lat 52.52 --lon 13.40
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its label or id (or the id's first characters).") var place: String
    @Option(help: "A new name.") var label: String?
    @Option(help: "Latitude.") var lat: Double?
    @Option(help: "Longitude.") var lon: Double?

    func validate() throws {
      if label == nil && lat == nil && lon == nil {
        throw ValidationError("say what to change: --label, --lat or --lon")
      }
    }

    func run() async throws {
      let c = try AreaContext(global)
      let old = try c.store.findWatch(place)
      let point =
        lat == nil && lon == nil
        ? nil : try AreaContext.point(lat: lat ?? old.point.lat, lon: lon ?? old.point.lon)
      let watch = try c.store.editWatch(old.id, label: label, point: point)
      let phase = try c.store.phase(at: watch.point)
      try c.app.output.show(Vital.AreaCommand.Watch.json(watch, phase: phase)) {
        "edited: \(watch.label)  \(watch.point.lat), \(watch.point.lon)  \(phase?.rawValue ?? "unknown")"
      }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Stop watching a place ('vital undo' brings it back).",
      discussion: """
        Examples:
          vital area watch delete Home --yes
          vital area watch rm 3f2a --yes
        """,
      aliases: ["remove", "rm"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its label or id (or the id's first characters).") var place: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try AreaContext(global)
      let watch = try c.store.findWatch(place)
      guard try Confirmation.ask("Stop watching \(watch.label)?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      _ = try c.store.removeWatch(watch.id)
      try c.app.output.show(.object([("id", .string(watch.id)), ("label", .string(watch.label))])) {
        "stopped watching \(watch.label)"
      }
    }
  }
}
