import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital.Cycle {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one logged period.",
      discussion: """
        Examples:
          vital cycle show 2026-10-03
          vital cycle show 5c1e --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The period's id (or its first characters) or its first day.") var period: String

    func run() async throws {
      let c = try CycleContext(global)
      let p = try c.store.find(period)
      try c.app.output.show(c.app.json(p)) {
        var table = TextTable(["field", "value"])
        table.add(["id", p.id])
        table.add(["start", p.start.description])
        table.add(["end", p.end?.description ?? "- (ongoing)"])
        return table.text
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Move a period's first or last day: only the given fields change.",
      discussion: """
        Fields: --start, --end ('' makes it ongoing again). A period cannot overlap another one \
        or reach into the future.

        Examples:
          vital cycle edit 2026-10-03 --end 2026-10-07
          vital cycle edit 5c1e --start 2026-10-02
          vital cycle edit 2026-11-20 --end ''
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The period's id (or its first characters) or its first day.") var period: String
    @Option(help: "The first day, YYYY-MM-DD.") var start: LocalDate?
    @Option(help: "The last day, YYYY-MM-DD ('' while it is ongoing).") var end: String?

    func validate() throws {
      if start == nil && end == nil { throw ValidationError("say what to change: --start or --end") }
      if let end, !end.isEmpty, LocalDate(end) == nil {
        throw ValidationError("--end must be a date, YYYY-MM-DD, or '' for an ongoing period")
      }
    }

    func run() async throws {
      let c = try CycleContext(global)
      let p = try c.store.edit(period, start: start, end: end.map { LocalDate($0) })
      try c.app.output.show(c.app.json(p)) { "edited: \(p.start) to \(p.end?.description ?? "ongoing")" }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a logged period ('vital undo' brings it back).",
      discussion: """
        Examples:
          vital cycle delete 2026-10-03 --yes
          vital cycle remove --start 2026-10-03 --yes
        """,
      aliases: ["remove", "rm"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The period's id (or its first characters) or its first day.") var period: String?
    @Option(help: "Its first day, YYYY-MM-DD (the older way to name it).") var start: LocalDate?
    @Flag(help: "Do not ask.") var yes = false

    func validate() throws {
      if (period == nil) == (start == nil) { throw ValidationError("name one period: its id or first day") }
    }

    func run() async throws {
      let c = try CycleContext(global)
      let p = try c.store.find(period ?? start!.description)
      let text = "\(p.start) to \(p.end?.description ?? "ongoing")"
      guard try Confirmation.ask("Delete the period \(text)?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      try c.store.delete(p.id)
      try c.app.output.show(c.app.json(p)) { "deleted: \(text)" }
    }
  }
}
