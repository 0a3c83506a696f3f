import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records
import Storage

extension Vital {
  struct Meds: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "meds",
      abstract: "Medications: schedules, takes and skips, stock, adherence.",
      subcommands: [
        Add.self, List.self, Show.self, Edit.self, Delete.self, Take.self, Skip.self, Snooze.self, Pause.self,
        Resume.self, Undo.self, DoseCommand.self, Refill.self, Stats.self, History.self, Export.self,
      ],
      aliases: ["med", "medication", "medications", "medicine", "pills", "drugs"])
  }
}

extension Vital.Meds {
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a medication: on a schedule, as a taper, or as needed.",
      discussion: """
        Times are local wherever you are; --zone pins them to one zone (08:00 Berlin time is \
        02:00 in New York). A taper (--steps) changes the dose on the given days and ends after \
        the last step unless --then-keep. A medication taken as needed has no times and no \
        reminders; 'vital meds take' checks it against --min-interval and --max-per-day (any 24 \
        hours).

        Examples:
          vital meds add Ramipril --at 08:00 --at 20:00 --stock 60
          vital meds add 'Vitamin D' --at 12:00 --days mon,thu --dose '1000 IU'
          vital meds add Prednisolone --at 08:00 --steps '20 mg:7d,10 mg:7d,5 mg:5d'
          vital meds add Levothyroxine --at 07:00 --zone Europe/Berlin
          vital meds add Ibuprofen --as-needed --min-interval 6h --max-per-day 3 --dose '400 mg'
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name (unique, any case).") var name: String
    @Option(name: .customLong("at"), help: "A time of day, HH:MM; repeat for several.") var times: [String] = []
    @Option(help: "Weekdays only, e.g. mon,wed,fri (default: every day).") var days: String?
    @Option(help: "How much, e.g. '1 tablet'.") var dose: String?
    @Option(help: "Doses in stock.") var stock: Int?
    @Option(help: "Warn when the stock falls to this (default: three days of doses).") var refillAt: Int?
    @Flag(help: "Taken as needed (PRN): no schedule, no reminders.") var asNeeded = false
    @OptionGroup var plan: MedsPlanOptions

    func validate() throws {
      if asNeeded && !times.isEmpty {
        throw ValidationError("--as-needed has no --at times; leave out one or the other")
      }
    }

    func run() async throws {
      let c = try MedsContext(global)
      var details = MedicationStore.Changes(
        times: times, days: days.map { [$0] }, dose: .some(dose), refillAt: .some(refillAt), stock: stock)
      details.asNeeded = asNeeded
      plan.apply(to: &details)
      let m = try c.store.add(name: name, details)
      let line = try c.line(m)
      try c.app.output.show(try c.json(m)) { "added: \(line)" }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "Your medications, with the next dose due (or allowed, for those taken as needed).",
      discussion: """
        Examples:
          vital meds list
          vital meds ls --json
        """, aliases: ["ls"])
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try MedsContext(global)
      let all = try c.store.list()
      let json = JSON.array(try all.map(c.json))
      let short = ShortID.prefixes(all.map(\.id))
      var table = TextTable(["id", "name", "schedule", "days", "dose", "stock", "next"])
      for m in all {
        let paused = c.store.pausedNow(m).map { "paused until \(c.app.human($0.until))" }
        table.add([
          short[m.id] ?? m.id, m.name, m.scheduleText,
          m.asNeeded ? "-" : m.days.map { $0.map(\.name).joined(separator: ",") } ?? "daily",
          c.dose(m) ?? "-", try c.store.currentStock(m).map(String.init) ?? "-", try paused ?? c.next(m),
        ])
      }
      try c.app.output.show(json) {
        all.isEmpty ? "No medications; add one with 'vital meds add NAME --at HH:MM'." : table.text
      }
    }
  }

  struct Take: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "take", abstract: "Record a scheduled dose as taken.",
      discussion: """
        The dose is the earliest one of that day already due and still open (a morning dose \
        taken late is the morning's, not the evening's), else the nearest one within 12 hours; \
        --dose names it. The answer says which one it took. --shift moves that day's later \
        doses by as much as this one is late (with --min-gap set, they move by themselves when \
        the next would come too soon). A medication taken as needed is recorded at that time, \
        unless it would break its limits: then the answer says when the next dose is allowed, \
        and --force records it anyway, marked as over the limit.

        Examples:
          vital meds take Ramipril
          vital meds take Ramipril --at 07:30 --dose 08:00
          vital meds take Ramipril --at 10:15 --shift
          vital meds take Ibuprofen --force
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String
    @Option(help: "When you took it (default: now).") var at: DateTimeArgument?
    @Option(name: .customLong("dose"), help: "Which scheduled dose of that day, HH:MM.") var slot: String?
    @Flag(help: "Move the day's later doses by as much as this one is late.") var shift = false
    @Flag(help: "As needed: record it even past the limits (marked as over the limit).") var force = false

    func run() async throws {
      let c = try MedsContext(global)
      let taken = try c.store.take(
        medication, at: try at.map(c.app.instant), slot: try MedsContext.slot(slot), shift: shift, force: force)
      let warning =
        taken.refillDue ? "stock is down to \(taken.stock ?? 0): time to refill ('vital meds refill NAME N')" : nil
      if let warning, c.app.output.json { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
      let json = JSON.object([
        ("dose", c.json(taken.dose)), ("stock", taken.stock.map { JSON.int($0) } ?? .null),
        ("refill_due", .bool(taken.refillDue)), ("shifted", .optional(taken.shifted.map(TimeSpan.text))),
      ])
      // An as-needed dose is its own time; a scheduled one is named, also when taken on the minute.
      let asNeeded = try c.store.find(taken.dose.medicationID).asNeeded
      let which = asNeeded ? "" : ", dose of \(c.app.human(taken.dose.scheduledAt))"
      try c.app.output.show(json) {
        "taken: \(taken.dose.medication)\(which)" + (taken.dose.overLimit ? " (over the limit)" : "")
          + (taken.shifted.map { "; the day's later doses move \(TimeSpan.text($0)) later" } ?? "")
          + (taken.stock.map { ", \($0) left" } ?? "") + (warning.map { "\nwarning: \($0)" } ?? "")
      }
    }
  }

  struct Skip: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "skip", abstract: "Record a scheduled dose as skipped (chosen as 'take' chooses).",
      discussion: """
        Examples:
          vital meds skip Ramipril
          vital meds skip Ramipril --dose 20:00
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String
    @Option(help: "When you decided (default: now).") var at: DateTimeArgument?
    @Option(name: .customLong("dose"), help: "Which scheduled dose of that day, HH:MM.") var slot: String?

    func run() async throws {
      let c = try MedsContext(global)
      let dose = try c.store.skip(medication, at: try at.map(c.app.instant), slot: try MedsContext.slot(slot))
      try c.app.output.show(c.json(dose)) { "skipped: \(dose.medication), dose of \(c.app.human(dose.scheduledAt))" }
    }
  }

  struct Refill: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "refill", abstract: "Set the stock you have now, after a refill or a count.",
      discussion: """
        Examples:
          vital meds refill Ramipril 60
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String
    @Argument(help: "Doses in stock now.") var stock: Int

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.refill(medication, stock: stock)
      try c.app.output.show(try c.json(m)) { "stock of \(m.name): \(stock)" }
    }
  }

  struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "stats", abstract: "Scheduled, taken, skipped and missed doses, and adherence.",
      discussion: """
        Adherence is the share of scheduled doses taken, of those taken, skipped or missed; a \
        dose due and still open counts once it is one of them. A medication taken as needed has \
        no adherence and never counts in it: its doses are counted per day instead.

        Examples:
          vital meds stats
          vital meds stats --days 90 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The last N days, today included.") var days = 30

    func run() async throws {
      let c = try MedsContext(global)
      let adherence = try c.store.adherence(days: days)
      try c.app.output.show(c.json(adherence)) { c.text(adherence, days: days) }
    }
  }

  struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history", abstract: "Every dose: taken, skipped or missed.",
      discussion: """
        A table on a terminal; CSV (RFC 4180) when written to a file or a pipe, or with \
        --format csv.

        Examples:
          vital meds history
          vital meds history > doses.csv
          vital meds history --format json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "csv (RFC 4180) or json (default: a table on a terminal, else csv).") var format: Vital.Donor.Format?

    func run() async throws {
      let c = try MedsContext(global)
      if format == .json || c.app.output.json {
        Output.write(JSON.array(try c.store.history().map(c.json)).serialized())
        return
      }
      guard format == nil, Output.isTerminal else {
        try c.store.exportCSV { FileHandle.standardOutput.write(Data($0)) }
        return
      }
      let history = try c.store.history()
      guard !history.isEmpty else { return Output.write("No doses yet.") }
      var table = TextTable(["scheduled", "medication", "dose", "status", "at"])
      for d in history {
        table.add([
          c.app.human(d.scheduledAt), d.medication, d.dose ?? "", d.status.rawValue, d.at.map(c.app.human) ?? "",
        ])
      }
      Output.write(Output.text(table.text))
    }
  }
}
