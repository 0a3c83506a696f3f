import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

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
      let sheet = try c.store.sheet(m, HumanText(now: c.app.now, calendar: c.app.calendar))
      try c.app.output.show(try c.json(m)) { sheet.table }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Change a medication's name, schedule or dose: only the given fields change.",
      discussion: """
        Fields: --name, --at (the new times, repeated; they replace the old ones), --days \
        ('' for every day), --dose and --refill-at ('' clears them), --stock (counted now), \
        and what 'meds add' sets: --steps, --start, --then-keep/--then-stop, --zone, --min-gap, \
        --expires, --min-interval, --max-per-day ('' clears them). A new schedule, dose or zone \
        counts from now on: the doses before keep the times and the dose they had.

        Examples:
          vital meds edit Ramipril --at 09:00 --at 21:00
          vital meds edit Ramipril --days mon,wed,fri --dose '2.5 mg'
          vital meds edit Ramipril --stock 28 --refill-at 7
          vital meds edit 3f2a --name Ramipril --zone Europe/Berlin
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
    @Option(help: "The stock you have now.") var stock: Int?
    @OptionGroup var plan: MedsPlanOptions

    func validate() throws {
      if name == nil && times.isEmpty && days == nil && dose == nil && refillAt == nil && stock == nil && plan.isEmpty {
        throw ValidationError(
          "say what to change: --name, --at, --days, --dose, --stock, --refill-at, --steps, --zone, ...")
      }
      if let refillAt, !refillAt.isEmpty, Int(refillAt) == nil {
        throw ValidationError("--refill-at must be a whole number, or '' for the default")
      }
    }

    func run() async throws {
      let c = try MedsContext(global)
      var changes = MedicationStore.Changes(
        name: name, times: times.isEmpty ? nil : times, days: days.map { $0.isEmpty ? nil : [$0] },
        dose: dose.map { $0.isEmpty ? nil : $0 }, refillAt: refillAt.map { Int($0) }, stock: stock)
      plan.apply(to: &changes)
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
