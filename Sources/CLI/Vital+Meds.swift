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
      subcommands: [Add.self, List.self, Remove.self, Take.self, Skip.self, Refill.self, Stats.self, History.self])
  }
}

struct MedsContext {
  let app: App
  let store: MedicationStore

  init(_ global: GlobalOptions) throws {
    app = try App(global)
    store = MedicationStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
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

  func json(_ d: Dose) -> JSON {
    .object([
      ("scheduled_at", app.iso(d.scheduledAt)), ("medication", .string(d.medication)), ("dose", .optional(d.dose)),
      ("status", .string(d.status.rawValue)), ("at", app.iso(d.at)),
    ])
  }
}

extension Vital.Meds {
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a medication and its schedule.")
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
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Your medications.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try MedsContext(global)
      let all = try c.store.list()
      let json = JSON.array(try all.map(c.json))
      let lines = try all.map(c.line)
      try c.app.output.show(json) {
        lines.isEmpty ? "No medications; add one with 'vital meds add NAME --at HH:MM'." : lines.joined(separator: "\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Remove a medication and its reminders (its dose history stays).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.") var medication: String

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.remove(medication)
      try c.app.output.show(.object([("id", .string(m.id)), ("name", .string(m.name))])) { "removed: \(m.name)" }
    }
  }

  struct Take: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "take", abstract: "Record the nearest scheduled dose as taken.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.") var medication: String
    @Option(help: "When you took it (default: now).") var at: DateTimeArgument?

    func run() async throws {
      let c = try MedsContext(global)
      let taken = try c.store.take(medication, at: try at.map(c.app.instant))
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
      commandName: "skip", abstract: "Record the nearest scheduled dose as skipped.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.") var medication: String
    @Option(help: "When you decided (default: now).") var at: DateTimeArgument?

    func run() async throws {
      let c = try MedsContext(global)
      let dose = try c.store.skip(medication, at: try at.map(c.app.instant))
      try c.app.output.show(c.json(dose)) { "skipped: \(dose.medication), dose of \(c.app.human(dose.scheduledAt))" }
    }
  }

  struct Refill: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "refill", abstract: "Set the stock you have now, after a refill or a count.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its name or id.") var medication: String
    @Argument(help: "Doses in stock now.") var stock: Int

    func run() async throws {
      let c = try MedsContext(global)
      let m = try c.store.refill(medication, stock: stock)
      try c.app.output.show(try c.json(m)) { "stock of \(m.name): \(stock)" }
    }
  }

  struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "stats", abstract: "Scheduled, taken, skipped and missed doses, and adherence.")
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
            ("adherence", s.adherence.map { JSON.double(($0 * 1000).rounded() / 1000) } ?? .null),
          ])
        })
      try c.app.output.show(json) {
        guard !stats.isEmpty else { return "No medications." }
        return
          (["last \(days) days: scheduled taken skipped missed adherence"]
          + stats.map { s in
            "\(s.name)  \(s.scheduled) \(s.taken) \(s.skipped) \(s.missed)  "
              + (s.adherence.map { String(format: "%.0f%%", $0 * 100) } ?? "-")
          }).joined(separator: "\n")
      }
    }
  }

  struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history", abstract: "Every dose: taken, skipped or missed.")
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
