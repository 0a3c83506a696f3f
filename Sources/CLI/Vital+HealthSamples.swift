import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Interchange
import Records

extension Context where Store == HealthStore {
  /// A sample as its kind reads it (`value` in `unit`: a weight in lb as kg, a blood pressure's
  /// `systolic` and `diastolic`, a sleep `state`), and `recorded`: the value as the source wrote it.
  func json(_ s: HealthStore.Sample) -> JSON {
    var read: [(String, JSON)]
    switch HealthSampleKind.reading(s) {
    case .number(let value, let unit): read = [("value", HealthJSON.number(value)), ("unit", .string(unit))]
    case .pressure(let p):
      read = [
        ("value", .null), ("unit", .string(BloodPressure.unit)), ("systolic", HealthJSON.number(p.systolic)),
        ("diastolic", HealthJSON.number(p.diastolic)),
      ]
    case .sleep(let state): read = [("value", .null), ("unit", .null), ("state", .string(state.rawValue))]
    case .unread: read = [("value", .null), ("unit", .null)]
    }
    let recorded: JSON = .object([
      ("value", s.text.map(JSON.string) ?? s.value.map(JSON.double) ?? .null), ("unit", .optional(s.unit)),
    ])
    return .object(
      [("id", .string(s.id)), ("type", .string(HealthSampleKind.name(s)))] + read + [
        ("text", .optional(s.text)), ("recorded", recorded), ("source", .string(s.source)),
        ("start", app.iso(s.start)), ("end", app.iso(s.end)), ("manual", .bool(s.isManual)),
      ])
  }

  func line(_ s: HealthStore.Sample) -> String {
    "\(s.id.prefix(12))  \(app.human(s.start))  \(HealthSampleKind.name(s))  \(HealthSampleKind.amount(s))"
  }
}

extension Vital.HealthCommand {
  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "The samples of a day, with their ids, sources and times.",
      discussion: """
        Examples:
          vital health list
          vital health list --date 2026-11-20 --type steps --json
          vital health list --date 2026-11-20 --type bp
        """,
      aliases: ["ls"])
    @OptionGroup var global: GlobalOptions
    @Option(help: "The day, YYYY-MM-DD (default: today); for sleep, the night that ended on it.") var date: LocalDate?
    @Option(
      help: ArgumentHelp(
        "steps, distance, energy, exercise (the default: all four), a vital (heart-rate, weight, bp, ...) or sleep.",
        valueName: "type"))
    var type: HealthSampleKind?

    func run() async throws {
      let c = try HealthContext(global)
      let samples = try c.store.samples(on: date ?? c.app.today, type: type?.type)
      try c.app.output.show(.array(samples.map(c.json))) {
        guard !samples.isEmpty else { return "No samples on \(date ?? c.app.today)." }
        // An imported id begins with its start second, which the samples of one reading or one
        // minute share: past it, as `health workouts` shows them.
        var short = ShortID.prefixes(samples.map(\.id), minimum: 8)
        for (id, prefix) in short where id.hasPrefix("hs-") {
          short[id] = String(id.prefix(max(prefix.count, AppleHealthImport.shownID)))
        }
        var table = TextTable(["id", "start", "end", "type", "value", "source"])
        for s in samples {
          table.add([
            short[s.id] ?? s.id, c.app.human(s.start), c.app.human(s.end), HealthSampleKind.name(s),
            HealthSampleKind.amount(s), s.source,
          ])
        }
        return table.text
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one sample.",
      discussion: """
        Examples:
          vital health show hs-06add9fc7-4327
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The sample's id, or its first characters (see 'vital health list').") var id: String

    func run() async throws {
      let c = try HealthContext(global)
      let s = try c.store.sample(id)
      try c.app.output.show(c.json(s)) {
        var table = TextTable(["field", "value"])
        table.add(["id", s.id])
        table.add(["type", HealthSampleKind.name(s)])
        table.add(["value", HealthSampleKind.amount(s)])
        table.add(["source", s.source + (s.isManual ? " (typed by hand)" : " (imported, read-only)")])
        table.add(["start", c.app.human(s.start)])
        table.add(["end", c.app.human(s.end)])
        return table.text
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Correct a sample you added by hand: only the given fields change.",
      discussion: """
        Fields: --value, --at. Imported samples are read-only: delete one, or fix it in the \
        Health app and import again.

        Examples:
          vital health edit 3f2a --value 4200
          vital health edit 3f2a --at 2026-11-20T18:00
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The sample's id, or its first characters (see 'vital health list').") var id: String
    @Option(help: "The amount with its unit: 4200, 5km, 320kcal, 45min (bare: steps, m, kcal, min).") var value: String?
    @Option(help: "When.") var at: DateTimeArgument?

    func validate() throws {
      if value == nil && at == nil { throw ValidationError("say what to change: --value or --at") }
    }

    func run() async throws {
      let c = try HealthContext(global)
      var amount: Double?
      if let value {
        let sample = try c.store.sample(id)
        guard let measure = sample.name.flatMap(HealthTotals.Measure.init(name:)) else {
          throw HealthStore.SampleError.importedIsReadOnly(source: sample.source)
        }
        amount = try measure.amount(value, option: "--value")
      }
      let s = try c.store.editSample(id, value: amount, at: try at.map(c.app.instant))
      try c.app.output.show(c.json(s)) { "edited: \(c.line(s))" }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete a sample, typed or imported; it stays deleted when you import again.",
      discussion: """
        Examples:
          vital health delete hs-06add9fc7-4327 --yes
        """,
      aliases: ["remove", "rm"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The sample's id, or its first characters (see 'vital health list').") var id: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try HealthContext(global)
      let s = try c.store.sample(id)
      guard try Confirmation.ask("Delete \(c.line(s)) from \(s.source)?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      try c.store.deleteSample(s.id)
      try c.app.output.show(c.json(s)) { "deleted: \(c.line(s))" }
    }
  }
}
