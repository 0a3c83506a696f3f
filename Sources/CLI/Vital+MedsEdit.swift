import ArgumentParser
import CLICore
import Foundation
import Health

extension Vital.Meds {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one medication and its schedule.",
      discussion: """
        Examples:
          vital meds show Ibuprofen
          vital meds show 3f2a --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id (or the id's first characters).", completion: Completion.medicationNames)
    var medication: String

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.find(medication)
      try c.app.output.show(try c.json(m)) {
        var table = TextTable(["field", "value"])
        table.add(["id", m.id])
        table.add(["name", m.name])
        table.add(["times", m.times.map(\.description).joined(separator: ",")])
        table.add(["days", m.days.map { $0.map(\.name).joined(separator: ",") } ?? "daily"])
        table.add(["dose", m.dose ?? "-"])
        table.add(["stock", (try? c.store.currentStock(m)).flatMap { $0 }.map(String.init) ?? "-"])
        table.add(["refill_at", m.stock == nil ? "-" : String(m.refillThreshold)])
        return table.text
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Change a medication's name, schedule or dose: only the given fields change.",
      discussion: """
        Fields: --name, --at (the new times, repeated; they replace the old ones), --days \
        ('' for every day), --dose and --refill-at ('' clears them). A new schedule counts from \
        now on; doses recorded before keep their times. Stock is set with 'vital meds refill'.

        Examples:
          vital meds edit Ibuprofen --at 09:00 --at 21:00
          vital meds edit Ibuprofen --days mon,wed,fri --dose '200 mg'
          vital meds edit 3f2a --name Ibuprofen --dose ''
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id (or the id's first characters).", completion: Completion.medicationNames)
    var medication: String
    @Option(help: "A new name.") var name: String?
    @Option(name: .customLong("at"), help: "A time of day, HH:MM; repeat for each.") var times: [String] = []
    @Option(help: "Weekdays, e.g. mon,wed,fri ('' for every day).") var days: String?
    @Option(help: "What one dose is, e.g. '1 tablet' ('' clears it).") var dose: String?
    @Option(name: .customLong("refill-at"), help: "The stock that calls for a refill ('' for the default).")
    var refillAt: String?

    func validate() throws {
      if name == nil && times.isEmpty && days == nil && dose == nil && refillAt == nil {
        throw ValidationError("say what to change: --name, --at, --days, --dose or --refill-at")
      }
      if let refillAt, !refillAt.isEmpty, Int(refillAt) == nil {
        throw ValidationError("--refill-at must be a whole number, or '' for the default")
      }
    }

    func run() async throws {
      let c = try MedsContext(global)
      let changes = MedicationStore.Changes(
        name: name, times: times.isEmpty ? nil : times, days: days.map { $0.isEmpty ? nil : [$0] },
        dose: dose.map { $0.isEmpty ? nil : $0 }, refillAt: refillAt.map { Int($0) })
      let m = try c.store.edit(medication, changes)
      let line = try c.line(m)
      try c.app.output.show(try c.json(m)) { "edited: \(line)" }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete a medication and its reminders; its dose history stays ('vital undo' brings it back).",
      discussion: """
        Examples:
          vital meds delete Ibuprofen --yes
          vital meds rm 3f2a
        """,
      aliases: ["remove", "rm"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id (or the id's first characters).", completion: Completion.medicationNames)
    var medication: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.find(medication)
      guard try Confirmation.ask("Delete \(m.name) and its schedule?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      try c.store.remove(m.id)
      try c.app.output.show(.object([("id", .string(m.id)), ("name", .string(m.name))])) { "deleted: \(m.name)" }
    }
  }
}
