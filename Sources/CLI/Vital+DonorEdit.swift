import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital.Donor {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one donation or appointment.",
      discussion: """
        Examples:
          vital donor show 3f2a
          vital donor show 3f2a --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The donation's id, or its first characters (see 'vital donor history').") var id: String

    func run() async throws {
      let c = try DonorContext(global)
      let d = try c.store.find(id)
      try c.app.output.show(c.app.json(d)) { d.sheet(HumanText(now: c.app.now, calendar: c.app.calendar)).table }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Correct a donation or move an appointment: only the given fields change.",
      discussion: """
        Fields: --at (when it happened, or is to happen), --kind, --place, --notes ('' clears), \
        and what was measured at a completed donation: --hb or --hb-mmol, --ferritin, --bp, --pulse \
        ('' removes a figure). \
        The rules of 'record' and 'book' are checked again: a donation cannot move onto a day \
        with another of its kind (--force if you did donate twice), and an appointment must stay \
        allowed by the intervals since your donations.

        Examples:
          vital donor edit 3f2a --place "DRK Mitte"
          vital donor edit 3f2a --at 2026-06-10T09:30 --kind plasma
          vital donor edit 3f2a --notes ''
          vital donor edit 3f2a --hb 13.9 --pulse ''
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The donation's id, or its first characters (see 'vital donor history').") var id: String
    @Option(help: "When it happened or is to happen, e.g. 2026-06-10T09:30.") var at: DateTimeArgument?
    @Option(help: "whole-blood, plasma, platelets or double-red.") var kind: DonationKind?
    @Option(help: "Where.") var place: String?
    @Option(help: "Anything to remember about it ('' clears it).") var notes: String?
    @Flag(help: "Allow a second donation of the same kind on one day.") var force = false
    @OptionGroup(title: "Measured at the donation") var vitals: DonationVitalsOptions

    func validate() throws {
      if at == nil && kind == nil && place == nil && notes == nil && vitals.isEmpty {
        throw ValidationError("say what to change: --at, --kind, --place, --notes, --hb, --ferritin, --bp or --pulse")
      }
    }

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let changes = DonationStore.Changes(
        at: try at.map(c.app.instant), kind: kind, place: place, notes: notes.map { $0.isEmpty ? nil : $0 },
        vitals: try vitals.parsed(), clearVitals: vitals.cleared)
      let donation = try c.store.edit(id, changes, profile: profile, periodStarts: try c.periodStarts, force: force)
      try c.app.output.show(c.app.json(donation)) { "edited: \(c.app.line(donation))" }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a donation or appointment for good ('vital undo' brings it back).",
      discussion: """
        Examples:
          vital donor delete 3f2a          # asks first on a terminal
          vital donor delete 3f2a --yes
        """,
      aliases: ["rm", "remove"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The donation's id, or its first characters (see 'vital donor history').") var id: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try DonorContext(global)
      let donation = try c.store.find(id)
      guard try Confirmation.ask("Delete \(c.app.line(donation))?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      _ = try c.store.delete(donation.id)
      try c.app.output.show(c.app.json(donation)) { "deleted: \(c.app.line(donation))" }
    }
  }
}
