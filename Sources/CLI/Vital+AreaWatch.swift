import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension Vital.AreaCommand {
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch", abstract: "Places to watch: a notice when their phase changes.",
      subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Check.self])
  }
}

extension Vital.AreaCommand.Watch {
  static func json(_ w: AreaStore.Watch, phase: Phase?) -> JSON {
    .object([
      ("id", .string(w.id)), ("label", .string(w.label)), ("lat", .double(w.point.lat)), ("lon", .double(w.point.lon)),
      ("phase", .string(phase?.rawValue ?? "unknown")),
    ])
  }

  static func table(_ rows: [(AreaStore.Watch, Phase?)]) -> String {
    let short = ShortID.prefixes(rows.map(\.0.id))
    var table = TextTable(["id", "label", "lat", "lon", "phase"])
    for (w, phase) in rows {
      table.add([short[w.id] ?? w.id, w.label, "\(w.point.lat)", "\(w.point.lon)", phase?.rawValue ?? "unknown"])
    }
    return table.text
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Watch a place.",
      discussion: """
        Examples:
          vital area watch add --lat 52.52 --lon 13.405 --label Home
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Latitude.") var lat: Double
    @Option(help: "Longitude.") var lon: Double
    @Option(help: "A name for the place, e.g. Home.") var label: String

    func run() async throws {
      let c = try AreaContext(global)
      let watch = try c.store.addWatch(label: label, point: try AreaContext.point(lat: lat, lon: lon))
      let phase = try c.store.phase(at: watch.point)
      try c.app.output.show(Vital.AreaCommand.Watch.json(watch, phase: phase)) {
        "watching \(watch.label): phase \(phase?.rawValue ?? "unknown") now"
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Watched places and their phase now.",
      discussion: """
        Examples:
          vital area watch list
          vital area watch ls --json
        """, aliases: ["ls"])
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try AreaContext(global)
      let rows = try c.store.watches().map { ($0, try c.store.phase(at: $0.point)) }
      try c.app.output.show(.array(rows.map { Vital.AreaCommand.Watch.json($0.0, phase: $0.1) })) {
        rows.isEmpty
          ? "No watched places; add one with 'vital area watch add --lat X --lon Y --label L'."
          : Vital.AreaCommand.Watch.table(rows)
      }
    }
  }

  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check", abstract: "Report, once, each watched place whose phase changed since the last check.",
      discussion: """
        Examples:
          vital area watch check
          vital area watch check --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try AreaContext(global)
      let (changes, current) = try c.store.check()
      let json = JSON.object([
        (
          "changes",
          .array(
            changes.map {
              .object([
                ("id", .string($0.watch.id)), ("label", .string($0.watch.label)),
                ("from", .string($0.from?.rawValue ?? "unknown")), ("to", .string($0.to?.rawValue ?? "unknown")),
              ])
            })
        ),
        ("watched", .int(current.count)),
      ])
      try c.app.output.show(json) {
        changes.isEmpty
          ? "no phase changes at \(current.count) watched place\(current.count == 1 ? "" : "s")"
          : changes.map { "\($0.watch.label): \($0.from?.rawValue ?? "unknown") -> \($0.to?.rawValue ?? "unknown")" }
            .joined(separator: "\n")
      }
    }
  }
}
