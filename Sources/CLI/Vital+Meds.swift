import ArgumentParser
import CLICore
import Foundation
import Health
import Storage

extension Vital {
  struct Meds: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "meds",
      abstract: "Medications: schedules, takes and skips, stock, adherence.",
      subcommands: [
        Add.self, List.self, Show.self, Edit.self, Delete.self, Take.self, Skip.self, DoseCommand.self, Refill.self,
        Stats.self, History.self,
      ])
  }
}

struct MedsContext {
  let app: App
  let store: MedicationStore

  init(_ global: GlobalOptions) throws {
    app = try App(global)
    store = MedicationStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
  }

  /// `--dose HH:MM`, checked.
  static func slot(_ text: String?) throws -> TimeOfDay? {
    guard let text else { return nil }
    guard let time = TimeOfDay(text) else { throw MedicationError.badTime(text) }
    return time
  }

  func json(_ m: Medication) throws -> JSON {
    .object([
      ("id", .string(m.id)), ("name", .string(m.name)), ("times", .array(m.times.map { .string($0.description) })),
      ("days", m.days.map { .array($0.map { .string($0.name) }) } ?? .null), ("dose", .optional(m.dose)),
      ("stock", try store.currentStock(m).map { JSON.int($0) } ?? .null),
      ("refill_at", m.stock == nil ? .null : .int(m.refillThreshold)),
    ])
  }

  func line(_ m: Medication) throws -> String {
    let days = m.days.map { $0.map(\.name).joined(separator: ",") } ?? "daily"
    let stock = try store.currentStock(m).map { "  stock \($0)" } ?? ""
    return
      "\(m.name)  \(m.times.map(\.description).joined(separator: ","))  \(days)\(m.dose.map { "  \($0)" } ?? "")\(stock)"
  }

  /// How a person names a recorded dose: `Ibuprofen@2026-11-23T08:00`.
  func key(_ d: Dose) -> String {
    let local = ISO8601.string(from: d.scheduledAt, timeZone: app.timeZone)
    return "\(d.medication)@\(local.prefix(16))"
  }

  func json(_ d: Dose) -> JSON {
    .object([
      ("key", .string(key(d))), ("scheduled_at", app.iso(d.scheduledAt)), ("medication", .string(d.medication)),
      ("dose", .optional(d.dose)),
      ("status", .string(d.status.rawValue)), ("at", app.iso(d.at)),
    ])
  }
}

extension Vital.Meds {
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a medication and its schedule.",
      discussion: """
        Examples:
          vital meds add Ramipril --at 08:00 --at 20:00 --stock 60
          vital meds add 'Vitamin D' --at 12:00 --days mon,thu --dose '1000 IU'
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name (unique, any case).") var name: String
    @Option(name: .customLong("at"), help: "A time of day, HH:MM; repeat for several.") var times: [String] = []
    @Option(help: "Weekdays only, e.g. mon,wed,fri (default: every day).") var days: String?
    @Option(help: "How much, e.g. '1 tablet'.") var dose: String?
    @Option(help: "Doses in stock.") var stock: Int?
    @Option(help: "Warn when the stock falls to this (default: three days of doses).") var refillAt: Int?

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.add(
        name: name, times: times, days: days.map { [$0] }, dose: dose, stock: stock, refillAt: refillAt)
      try c.app.output.show(try c.json(m)) { "added: \(try! c.line(m))" }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Your medications.",
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
      var table = TextTable(["id", "name", "times", "days", "dose", "stock"])
      for m in all {
        table.add([
          short[m.id] ?? m.id, m.name, m.times.map(\.description).joined(separator: ","),
          m.days.map { $0.map(\.name).joined(separator: ",") } ?? "daily", m.dose ?? "-",
          try c.store.currentStock(m).map(String.init) ?? "-",
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
        --dose names it. The answer says which one it took.

        Examples:
          vital meds take Ibuprofen
          vital meds take Ibuprofen --at 07:30 --dose 08:00
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.", completion: Completion.medicationNames) var medication: String
    @Option(help: "When you took it (default: now).") var at: DateTimeArgument?
    @Option(name: .customLong("dose"), help: "Which scheduled dose of that day, HH:MM.") var slot: String?

    func run() async throws {
      let c = try MedsContext(global)
      let taken = try c.store.take(medication, at: try at.map(c.app.instant), slot: try MedsContext.slot(slot))
      let warning =
        taken.refillDue ? "stock is down to \(taken.stock ?? 0): time to refill ('vital meds refill NAME N')" : nil
      if let warning, c.app.output.json { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
      let json = JSON.object([
        ("dose", c.json(taken.dose)), ("stock", taken.stock.map { JSON.int($0) } ?? .null),
        ("refill_due", .bool(taken.refillDue)),
      ])
      try c.app.output.show(json) {
        "taken: \(taken.dose.medication), dose of \(c.app.human(taken.dose.scheduledAt))"
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
        Examples:
          vital meds stats
          vital meds stats --days 90 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The last N days, today included.") var days = 30

    func run() async throws {
      let c = try MedsContext(global)
      let stats = try c.store.stats(days: days)
      let json = JSON.array(
        stats.map { s in
          .object([
            ("name", .string(s.name)), ("scheduled", .int(s.scheduled)), ("taken", .int(s.taken)),
            ("skipped", .int(s.skipped)), ("missed", .int(s.missed)),
            // A percent, like every proportion Vital prints (goals' `percent` too).
            ("adherence", s.adherence.map { JSON.double(($0 * 1000).rounded() / 10) } ?? .null),
          ])
        })
      try c.app.output.show(json) {
        guard !stats.isEmpty else { return "No medications." }
        var table = TextTable(["medication", "scheduled", "taken", "skipped", "missed", "adherence"])
        for s in stats {
          table.add([
            s.name, "\(s.scheduled)", "\(s.taken)", "\(s.skipped)", "\(s.missed)",
            s.adherence.map { String(format: "%.0f%%", $0 * 100) } ?? "-",
          ])
        }
        return "last \(days) days\n" + table.text
      }
    }
  }

  struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history", abstract: "Every dose: taken, skipped or missed.",
      discussion: """
        Examples:
          vital meds history > doses.csv
          vital meds history --format json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "csv (RFC 4180) or json.") var format: Vital.Donor.Format = .csv

    func run() async throws {
      let c = try MedsContext(global)
      if format == .json || c.app.output.json {
        Output.write(JSON.array(try c.store.history().map(c.json)).serialized())
        return
      }
      try c.store.exportCSV { FileHandle.standardOutput.write(Data($0)) }
    }
  }
}
