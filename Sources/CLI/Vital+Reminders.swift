import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Views

extension Vital {
  struct Reminders: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reminders",
      abstract: "Reminders from appointments, medications, predicted periods and area watches.",
      subcommands: [List.self, ICS.self, Enable.self, Disable.self, Discreet.self, Notify.self],
      aliases: ["reminder"])
  }
}

extension ReminderSource: ExpressibleByArgument {}

extension Context where Store == ReminderEngine {
  /// `--from`/`--to` placed on the time line; `to` defaults to `days` after `from`.
  func window(_ from: DateTimeArgument?, _ to: DateTimeArgument?, days: Int) throws -> (Date, Date) {
    let start = try from.map { try app.instant($0, bareDateIsMidnight: true) } ?? app.now
    let end =
      try to.map { try app.instant($0, bareDateIsMidnight: true) }
      ?? app.calendar.date(byAdding: .day, value: days, to: start)!
    guard end >= start else { throw ValidationError("--to is before --from") }
    guard end.timeIntervalSince(start) <= 366 * 86_400 * 2 else {
      throw ValidationError("give a window of at most two years")
    }
    return (start, end)
  }

  func json(_ r: Reminder) -> JSON {
    .object([
      ("at", app.iso(r.at)), ("kind", .string(r.source.rawValue)), ("title", .string(r.title)),
      ("body", .string(r.body)), ("ref", .string(r.ref)),
    ])
  }

}

extension Vital.Reminders {
  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Reminders in a window (default: the next 7 days).",
      discussion: """
        Examples:
          vital reminders list
          vital reminders list --from 2026-12-01 --to 2026-12-31 --json
        """, aliases: ["ls"])
    @OptionGroup var global: GlobalOptions
    @Option(help: "Start (default: now).") var from: DateTimeArgument?
    @Option(help: "End (default: 7 days after the start).") var to: DateTimeArgument?

    func run() async throws {
      let c = try RemindersContext(global)
      let (start, end) = try c.window(from, to, days: 7)
      let reminders = try c.store.reminders(from: start, to: end)
      try c.app.output.show(.array(reminders.map(c.json))) {
        guard !reminders.isEmpty else { return "No reminders until \(c.app.human(end))." }
        var table = TextTable(["when", "kind", "what"])
        for r in reminders { table.add([c.app.human(r.at), r.source.rawValue, r.title]) }
        return table.text
      }
    }
  }

  struct ICS: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "ics", abstract: "Write the reminders as an iCalendar file (RFC 5545) with alarms.",
      discussion: """
        Examples:
          vital reminders ics --out vital.ics
          vital reminders ics --from 2026-12-01 --to 2027-01-01 --json
        """, aliases: ["export"])
    @OptionGroup var global: GlobalOptions
    @Option(help: "A file to write (default: stdout).") var out: String?
    @Option(help: "Start (default: now).") var from: DateTimeArgument?
    @Option(help: "End (default: 30 days after the start).") var to: DateTimeArgument?

    func run() async throws {
      let c = try RemindersContext(global)
      let (start, end) = try c.window(from, to, days: 30)
      let feed = try c.store.feed(from: start, to: end)
      let document = ICalendar.document(feed, stamp: c.app.now, product: "vital \(Vital.version)")
      let toFile = out != nil && out != "-"
      // --json prints one JSON document: the calendar inside it, or what went to the file.
      if c.app.output.json && !toFile {
        Output.write(JSON.object([("events", .int(feed.count)), ("ics", .string(document))]).serialized())
        return
      }
      let sink = try OutputSink(path: out, app: c.app)
      try sink.write(document)
      try sink.finish()
      if toFile {
        if c.app.output.json {
          Output.write(JSON.object([("out", .string(out!)), ("events", .int(feed.count))]).serialized())
        } else {
          FileHandle.standardError.write(Data("wrote \(HumanText.count(feed.count, "event")) to \(out!)\n".utf8))
        }
      }
    }
  }

  struct Enable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "enable",
      abstract: "Switch a reminder source on: donation, medication, cycle, area or temperature.",
      discussion: """
        temperature: every morning at --at (06:30 until you choose), a reminder to take your \
        waking temperature; none on days already noted or in a cycle pause. Off by default, as \
        is cycle.

        Examples:
          vital reminders enable cycle
          vital reminders enable temperature --at 06:15
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "donation, medication, cycle, area or temperature.") var source: ReminderSource
    @Option(help: "The time of day, HH:MM (temperature only).") var at: String?

    func run() async throws { try Toggle.set(global, source, on: true, at: at) }
  }

  struct Disable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "disable", abstract: "Switch a reminder source off.",
      discussion: """
        Examples:
          vital reminders disable area
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "donation, medication, cycle, area or temperature.") var source: ReminderSource

    func run() async throws { try Toggle.set(global, source, on: false) }
  }

  enum Toggle {
    static func set(_ global: GlobalOptions, _ source: ReminderSource, on: Bool, at: String? = nil) throws {
      let c = try RemindersContext(global)
      try c.store.settings.set(source, enabled: on, at: at)
      let enabled = try c.store.settings.enabled()
      let time = try c.store.settings.time(.temperature)
      let json = JSON.object(
        ReminderSource.allCases.map { ($0.rawValue, .bool(enabled.contains($0))) } + [
          ("temperature_at", .optional(time))
        ])
      try c.app.output.show(json) {
        ReminderSource.allCases.map {
          "\($0.rawValue): \(enabled.contains($0) ? "on" : "off")" + ($0 == .temperature ? " at \(time ?? "")" : "")
        }.joined(separator: "\n")
      }
    }
  }

  struct Discreet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "discreet",
      abstract: "Make notifications say only 'Vital: 1 reminder' (on), or what they are about (off).",
      discussion: """
        For a screen others see: the notification names no medication, clinic or cycle day. \
        Per device. Without an argument, says whether it is on.

        Examples:
          vital reminders discreet on
          vital reminders discreet
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "on or off.") var state: Switch?

    enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off }

    func run() async throws {
      let c = try RemindersContext(global)
      let settings = ReminderSettings(db: c.app.db, account: c.account)
      if let state { try settings.setDiscreet(state == .on) }
      let on = try settings.discreet()
      try c.app.output.show(.object([("discreet", .bool(on))])) {
        on ? "discreet notifications: on ('Vital: 1 reminder')" : "discreet notifications: off"
      }
    }
  }

  struct Notify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "notify",
      abstract: "Deliver each due reminder once (notify-send, else stdout); safe to run from cron every minute.",
      discussion: """
        Examples:
          vital reminders notify
          * * * * * $HOME/.local/bin/vital reminders notify   # crontab
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try RemindersContext(global)
      let desktop = c.app.output.json ? nil : DesktopNotifier.find()
      let discreet = try ReminderSettings(db: c.app.db, account: c.account).discreet()
      var due = 0
      let outcome = try ReminderDelivery(engine: c.store).run { reminder, missed in
        if discreet {
          due += 1
          return
        }
        let title = missed ? "Missed: \(reminder.title)" : reminder.title
        if let desktop {
          try desktop.send(title: title, body: "\(c.app.human(reminder.at)): \(reminder.body)")
        } else if !c.app.output.json {
          Output.write(Output.text("\(missed ? "missed" : "reminder"): \(c.app.human(reminder.at))  \(reminder.title)"))
        }
      }
      // Discreet: one notification that names nothing (what, which medication, which clinic).
      if discreet, due > 0, !c.app.output.json {
        let text = "\(due) reminder\(due == 1 ? "" : "s")"
        if let desktop {
          try desktop.send(title: "Vital", body: text + " (vital reminders list)")
        } else {
          Output.write(Output.text("Vital: \(text)"))
        }
      }
      if c.app.output.json {
        Output.write(
          JSON.object([
            ("delivered", .array(outcome.delivered.map(c.json))), ("missed", .array(outcome.missed.map(c.json))),
            ("failed", .int(outcome.failed)),
          ]).serialized())
      }
      if outcome.failed > 0 {
        throw CLIError.needsInput(
          "\(outcome.failed) notification\(outcome.failed == 1 ? "" : "s") could not be shown; they will be tried again on the next run"
        )
      }
    }
  }
}
