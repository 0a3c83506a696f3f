import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital.Meds {
  struct Snooze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "snooze", abstract: "Be reminded of the dose due now once more, a little later.",
      discussion: """
        The dose stays open; its reminder comes again once, after --for (default 15m).

        Examples:
          vital meds snooze Ramipril
          vital meds snooze Ramipril --for 1h
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String
    @Option(name: .customLong("for"), help: "How long, e.g. 15m or 1h (1m to 12h).") var span = "15m"

    func run() async throws {
      let c = try MedsContext(global)
      guard let seconds = TimeSpan.seconds(span) else { throw MedicationError.badSpan("--for") }
      let (m, dose) = try c.store.snooze(medication, for: seconds)
      let until = m.snooze!.until
      let json = JSON.object([("dose", c.json(dose)), ("until", c.app.iso(until))])
      try c.app.output.show(json) {
        "snoozed: \(m.name), dose of \(c.app.human(dose.due)), again at \(c.app.human(until))"
      }
    }
  }

  struct Pause: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "pause", abstract: "Pause a schedule until a day: no reminders, no missed doses.",
      discussion: """
        From now until the start of --until (in the schedule's zone), when doses come again. \
        'vital meds resume' ends the pause earlier.

        Examples:
          vital meds pause Ramipril --until 2026-12-10
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String
    @Option(help: "The first day with doses again, YYYY-MM-DD.") var until: LocalDate

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.pause(medication, until: until)
      try c.app.output.show(try c.json(m)) { "paused: \(m.name) until \(until)" }
    }
  }

  struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "resume", abstract: "End a pause now.",
      discussion: """
        Examples:
          vital meds resume Ramipril
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.resume(medication)
      try c.app.output.show(try c.json(m)) { "resumed: \(m.name)" }
    }
  }

  struct Undo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "undo", abstract: "Take back the last take or skip of a medication (a take's stock comes back).",
      discussion: """
        The dose is open again (and missed once its time has passed). 'vital undo' takes back \
        any command; this one always the medication's last recorded dose.

        Examples:
          vital meds undo Ramipril
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String

    func run() async throws {
      let c = try MedsContext(global)
      let dose = try c.store.undoLast(medication)
      let m = try c.store.find(medication)
      let stock = try c.store.currentStock(m)
      let json = JSON.object([("undone", c.json(dose)), ("stock", stock.map { JSON.int($0) } ?? .null)])
      try c.app.output.show(json) {
        "undone: \(dose.status.rawValue) \(dose.medication), dose of \(c.app.human(dose.scheduledAt))"
          + (stock.map { ", \($0) in stock" } ?? "")
      }
    }
  }
}
