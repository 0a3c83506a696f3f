import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension DoseStatus: ExpressibleByArgument {}

extension Vital.Meds {
  struct DoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "dose", abstract: "Show, correct or delete a recorded take or skip.",
      discussion: """
        A dose is named by its medication and scheduled local time, as 'vital meds history \
        --format json' shows it in "key": Ibuprofen@2026-11-23T08:00.
        """,
      subcommands: [Show.self, Edit.self, Delete.self])
  }
}

extension Vital.Meds.DoseCommand {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one recorded dose.",
      discussion: """
        Examples:
          vital meds dose show Ibuprofen@2026-11-23T08:00
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "NAME@YYYY-MM-DDTHH:MM: the medication and the dose's scheduled time.") var dose: String

    func run() async throws {
      let c = try MedsContext(global)
      let d = try c.store.findDose(dose)
      try c.app.output.show(c.json(d)) {
        var table = TextTable(["field", "value"])
        table.add(["key", c.key(d)])
        table.add(["scheduled_at", c.app.human(d.scheduledAt)])
        table.add(["status", d.status.rawValue])
        table.add(["at", c.app.human(d.at)])
        return table.text
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Correct when a dose was taken, or whether it was taken or skipped.",
      discussion: """
        Fields: --at (within 12 hours of the scheduled time: further away it is another dose), \
        --status taken|skipped.

        Examples:
          vital meds dose edit Ibuprofen@2026-11-23T08:00 --at 2026-11-23T07:40
          vital meds dose edit Ibuprofen@2026-11-23T20:00 --status skipped
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "NAME@YYYY-MM-DDTHH:MM: the medication and the dose's scheduled time.") var dose: String
    @Option(help: "When it was taken or skipped.") var at: DateTimeArgument?
    @Option(help: "taken or skipped.") var status: DoseStatus?

    func validate() throws {
      if at == nil && status == nil { throw ValidationError("say what to change: --at or --status") }
    }

    func run() async throws {
      let c = try MedsContext(global)
      let d = try c.store.editDose(dose, at: try at.map(c.app.instant), status: status)
      try c.app.output.show(c.json(d)) { "edited: \(c.key(d)) \(d.status.rawValue) at \(c.app.human(d.at))" }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Forget a recorded take or skip: the dose is open again.",
      discussion: """
        Examples:
          vital meds dose delete Ibuprofen@2026-11-23T20:00 --yes
        """,
      aliases: ["remove", "rm"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "NAME@YYYY-MM-DDTHH:MM: the medication and the dose's scheduled time.") var dose: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try MedsContext(global)
      let d = try c.store.findDose(dose)
      guard try Confirmation.ask("Forget that \(c.key(d)) was \(d.status.rawValue)?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      try c.store.deleteDose(dose)
      try c.app.output.show(c.json(d)) { "deleted: \(c.key(d)) \(d.status.rawValue)" }
    }
  }
}
