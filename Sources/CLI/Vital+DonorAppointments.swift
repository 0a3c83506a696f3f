import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension Vital.Donor {
  struct Book: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "book", abstract: "Book a donation appointment.",
      discussion: """
        Examples:
          vital donor book --at 2026-12-01T09:30 --place "DRK Berlin"
          vital donor book --at "tomorrow 16:00" --place Uniklinik --kind plasma
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Local date and time, e.g. 2026-12-01T09:30.") var at: DateTimeArgument
    @Option(help: "Where you will donate.") var place: String
    @Option(help: "whole-blood, plasma, platelets or double-red.") var kind: DonationKind = .wholeBlood

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let donation = try c.store.book(
        at: try c.app.instant(at), place: place, kind: kind, profile: profile, periodStarts: try c.periodStarts)
      try c.app.output.show(c.app.json(donation)) { "booked: \(c.app.line(donation))" }
    }
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Your next appointment, the calendar days left, and what to do now.",
      discussion: """
        Examples:
          vital donor status
          vital donor status --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let app = c.app
      let status = try c.store.status(profile: profile, periodStarts: try c.periodStarts)
      let (appointment, daysLeft, kind) = (status.appointment, status.daysLeft, status.kind)
      var advice = status.advice
      if let missed = status.missedAdvice {
        advice.insert(missed, at: 0)
      } else if status.overdue {
        advice.insert("Once you have donated, record it with 'vital donor complete'.", at: 0)
      }
      let json = JSON.object([
        ("appointment", appointment.map(app.json) ?? .null),
        ("days_left", daysLeft.map { JSON.int($0) } ?? .null),
        ("overdue", .bool(status.overdue)), ("missed", .bool(status.missed)),
        ("advice", .array(advice.map(JSON.string))),
        ("next_eligible", .optional(status.nextEligible?.description)),
      ])
      try app.output.show(json) {
        let human = HumanText(now: app.now, calendar: app.calendar)
        var lines: [String] = []
        if let appointment, let at = appointment.scheduledAt, let when = status.when(human) {
          lines.append(
            status.missed
              ? "Missed appointment: \(human.time(at)), \(appointment.kind.label), \(appointment.place)"
              : "Next appointment: \(when), \(appointment.kind.label), \(appointment.place)")
        } else {
          lines.append("No appointment booked.")
        }
        lines.append(
          status.eligibility.missing.isEmpty
            ? "You may donate \(kind.label) \(status.mayDonate(human))."
            : "When you may donate \(kind.label) is \(status.mayDonate(human)).")
        if !advice.isEmpty { lines += [""] + advice.map { "  - \($0)" } }
        return lines.joined(separator: "\n")
      }
    }
  }

  struct Reschedule: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reschedule", abstract: "Move your appointment to another time, checked as 'book' checks it.",
      discussion: """
        Examples:
          vital donor reschedule --at "2026-12-03T16:00"
          vital donor reschedule 3f2a --at "tomorrow 09:30" --place "DRK Mitte"
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The appointment's id (or its first characters); the scheduled one if omitted.") var id: String?
    @Option(help: "The new local date and time, e.g. 2026-12-03T16:00.") var at: DateTimeArgument
    @Option(help: "A new place.") var place: String?

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let donation = try c.store.reschedule(
        id, at: try c.app.instant(at), place: place, profile: profile, periodStarts: try c.periodStarts)
      try c.app.output.show(c.app.json(donation)) { "rescheduled: \(c.app.line(donation))" }
    }
  }

  struct Cancel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "cancel", abstract: "Cancel the scheduled appointment.",
      discussion: """
        Examples:
          vital donor cancel
          vital donor cancel 3f2a
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The appointment's id (or its first characters); the scheduled one if omitted.") var id: String?

    func run() async throws {
      let c = try DonorContext(global)
      let donation = try c.store.cancel(id)
      try c.app.output.show(c.app.json(donation)) { "cancelled: \(c.app.line(donation))" }
    }
  }

  struct Complete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "complete", abstract: "Record the scheduled appointment as donated.",
      discussion: """
        Examples:
          vital donor complete
          vital donor complete --at "today 09:10"
          vital donor complete --hb 14.1 --bp 124/78 --pulse 66
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The appointment's id (or its first characters); the scheduled one if omitted.") var id: String?
    @Option(help: "When you donated (default: the appointment's time).") var at: DateTimeArgument?
    @OptionGroup(title: "Measured at the donation") var vitals: DonationVitalsOptions

    func run() async throws {
      let c = try DonorContext(global)
      let donation = try c.store.complete(id, at: try at.map(c.app.instant), vitals: try vitals.parsed())
      try c.app.output.show(c.app.json(donation)) { "donated: \(c.app.line(donation))" }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a donation you made to your history ('record' is the same).",
      discussion: """
        A time ahead is an appointment: book it with 'vital donor book'.

        Examples:
          vital donor add --at 2026-03-01T10:00 --place "DRK Mitte"
          vital donor record --at "yesterday 17:30" --place Uniklinik --kind plasma --notes "arm bruised"
          vital donor add --at 2026-05-02T11:00 --place "DRK Mitte" --hb-mmol 8.6 --ferritin 38
        """, aliases: ["record"])
    @OptionGroup var global: GlobalOptions
    @Option(help: "When you donated, e.g. 2026-03-01T10:00.") var at: DateTimeArgument
    @Option(help: "Where you donated.") var place: String
    @Option(help: "whole-blood, plasma, platelets or double-red.") var kind: DonationKind = .wholeBlood
    @Option(help: "Anything to remember about it.") var notes: String?
    @Flag(help: "Record it even when that day already has a donation of this kind.") var force = false
    @OptionGroup(title: "Measured at the donation") var vitals: DonationVitalsOptions

    func run() async throws {
      let c = try DonorContext(global)
      let donation = try c.store.record(
        at: try c.app.instant(at), place: place, kind: kind, notes: notes, vitals: try vitals.parsed(), force: force)
      try c.app.output.show(c.app.json(donation)) { "recorded: \(c.app.line(donation))" }
    }
  }

  struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history", abstract: "Every donation and appointment, newest first.",
      discussion: """
        Examples:
          vital donor history
          vital donor list --json
        """, aliases: ["list", "ls"])
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try DonorContext(global)
      let history = try c.store.history()
      try c.app.output.show(.array(history.map(c.app.json))) {
        guard !history.isEmpty else { return "No donations yet." }
        var table = TextTable(["id", "when", "kind", "status", "place"])
        for d in history {
          table.add([String(d.id.prefix(8)), c.app.human(d.date), d.kind.rawValue, d.status.rawValue, d.place])
        }
        return table.text
      }
    }
  }
}
