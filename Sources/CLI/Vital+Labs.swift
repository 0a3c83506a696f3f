import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital {
  struct Labs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "labs", abstract: "Lab results and measurements by hand: coded, converted, flagged, drawn.",
      discussion: """
        Each test is one of the catalogue's ('vital labs tests'): its LOINC code, the unit its \
        results are kept in, the other units it converts from, and default adult ranges (docs/labs.md).
        """,
      subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Trend.self, Import.self, Tests.self],
      aliases: ["lab"])
  }
}

extension Context where Store == LabStore {
  func test(_ r: LabResult) -> LabTest? { store.catalogue.test(r.test) }

  /// The results added and those measured at donations, newest first.
  func results(test: String? = nil, from: Date? = nil, before: Date? = nil) throws -> [LabResult] {
    let donations = try DonationStore(store.scope).measured(from: from, before: before)
    return try store.list(test: test, from: from, before: before, donations: donations)
  }

  /// A result added, or a donation's by `TEST.DONATION`.
  func find(_ id: String) throws -> LabResult {
    guard let reference = store.donationReference(id) else { return try store.find(id) }
    return try LabStore.result(reference.test, of: DonationStore(store.scope).find(reference.donation))
  }

  /// A test's trend: its results, those of donations, and for a measurement the imported days.
  func trend(_ test: LabTest, from: Date) throws -> [LabTrendPoint] {
    let donations = try DonationStore(store.scope).measured(from: from)
    let imported = try LabStore.importedKind(of: test).map { try HealthStore(store.scope).dailyMeans($0, from: from) }
    return try store.trend(test, from: from, donations: donations, imported: imported ?? [])
  }

  /// The sex whose reference ranges apply: the profile's, if it says.
  var sex: Sex? {
    get throws { try ProfileStore(store.scope).load().sex }
  }

  /// `35 ng/mL`, `128/82 mmHg`, in the test's canonical unit and decimals.
  func value(_ r: LabResult) -> String {
    guard let test = test(r) else { return HealthJSON.text(r.value) }
    let number = { (v: Double) in HumanText.fixed(v, decimals: test.decimals) }
    return number(r.value) + (r.second.map { "/" + number($0) } ?? "") + " " + test.displayUnit
  }

  /// `2026-11-20` for a result from a letter (at midnight), else `2026-11-20 08:10`: results
  /// span years, so each says its own.
  func when(_ date: Date) -> String {
    // The zone's offset and arithmetic: a trend asks for every result, and the calendar's
    // components cost ten times as much on Linux.
    let local = Int(date.timeIntervalSince1970.rounded(.down)) + app.calendar.timeZone.secondsFromGMT(for: date)
    let (days, second) = (local.floorDivided(by: 86_400), local.floorModulo(86_400))
    let day = LocalDate(ordinal: days).description
    return second == 0
      ? day : day + " " + HumanText.twoDigits(second / 3600) + ":" + HumanText.twoDigits(second / 60 % 60)
  }

  func json(_ r: LabResult, sex: Sex?) -> JSON {
    let test = test(r)
    let range = r.range(test, sex: sex)
    return .object([
      ("id", .string(r.id)), ("test", .string(r.test)), ("name", .optional(test?.name)),
      ("loinc", .optional(test?.loinc)), ("value", .double(r.value)), ("second", r.second.map(JSON.double) ?? .null),
      ("unit", .optional(test?.unit)), ("at", app.iso(r.at)), ("lab", .optional(r.lab)),
      (
        "range",
        range.map {
          .object([
            ("low", $0.low.map(JSON.double) ?? .null), ("high", $0.high.map(JSON.double) ?? .null),
            ("source", .string($0.ownRange ? "laboratory" : "catalogue")),
          ])
        } ?? .null
      ),
      ("flag", .optional(r.flag(test, sex: sex)?.rawValue)),
      (
        "recorded",
        r.recordedUnit.map { .object([("value", r.recorded.map(JSON.double) ?? .null), ("unit", .string($0))]) }
          ?? .null
      ),
      ("note", .optional(r.note)), ("donation_id", .optional(r.donationID)),
    ])
  }

  /// A trend point as JSON: its result's, with where it came from.
  func json(_ p: LabTrendPoint, sex: Sex?) -> JSON {
    guard let sources = p.sources else { return json(p.result, sex: sex) }
    let test = test(p.result)
    return .object([
      ("day", .string(LocalDate(p.result.at, in: app.calendar).description)), ("test", .string(p.result.test)),
      ("value", .double(p.result.value)), ("second", p.result.second.map(JSON.double) ?? .null),
      ("unit", .optional(test?.unit)), ("readings", .int(Int64(p.readings))),
      ("sources", .array(sources.map(JSON.string))), ("flag", .optional(p.result.flag(test, sex: sex)?.rawValue)),
    ])
  }

  /// Who gave a trend point: an imported day's devices, else the result's source.
  func source(_ p: LabTrendPoint, ownRange: Bool) -> String {
    if let sources = p.sources {
      return sources.joined(separator: ", ") + (p.readings > 1 ? " (mean of \(p.readings))" : "")
    }
    let source = p.result.source
    return ownRange ? [source, "lab's range"].filter { !$0.isEmpty }.joined(separator: "; ") : source
  }

  func line(_ r: LabResult, sex: Sex?) -> String {
    let flag = r.flag(test(r), sex: sex).flatMap { $0 == .normal ? nil : " \($0.rawValue)" } ?? ""
    return "\(HumanText.shortID(r.id))  \(when(r.at))  \(test(r)?.name ?? r.test)  \(value(r))\(flag)"
      + (r.source.isEmpty ? "" : "  (\(r.source))")
  }

  /// `15–150`, `< 3.0`, `> 1.0`: a range in the test's unit.
  static func range(_ low: Double?, _ high: Double?, decimals: Int) -> String {
    LabTest.rangeText(low, high, decimals: decimals)
  }
}

/// What `add` and `edit` share: a test's value and unit, when, where, the laboratory's range.
struct LabEntryOptions: ParsableArguments {
  @Option(help: "When the sample was taken: a date (from a letter) or a date and time (default: now).")
  var at: DateTimeArgument?
  @Option(help: "The laboratory.") var lab: String?
  @Option(help: "The laboratory's own range, in the result's unit: LOW-HIGH, <HIGH or >LOW.") var range: String?
  @Option(help: "A note.") var note: String?
  @Flag(help: "Keep a value outside anything the test can be (check it first).") var force = false
}

extension Vital.Labs {
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a result: a test, its value, and its unit.",
      discussion: """
        The unit is needed when the test comes in several (glucose in mg/dL or mmol/L); the \
        result is kept in the test's own unit, with the value as written beside it.

        Examples:
          vital labs add ferritin 35 ng/mL --at 2026-11-20 --lab "City Lab" --range 15-150
          vital labs add hb 13.9 g/dL --at 2026-11-20
          vital labs add glucose 95 mg/dL --at "2026-11-20 08:10"
          vital labs add bp 128/82
          vital labs add weight 154 lb
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The test: its id or a name ('vital labs tests').") var test: String
    @Argument(help: "The value; two numbers for blood pressure (128/82).") var value: String
    @Argument(help: "The unit, as on the letter (mg/dL, mmol/L, ...).") var unit: String?
    @OptionGroup var entry: LabEntryOptions

    func run() async throws {
      let c = try LabsContext(global)
      let at = try entry.at.map { try c.app.instant($0, bareDateIsMidnight: true) } ?? c.app.now
      let result = try c.store.add(
        LabEntry(test: test, value: value, unit: unit, at: at, lab: entry.lab, range: entry.range, note: entry.note),
        force: entry.force)
      let sex = try c.sex
      try c.app.output.show(c.json(result, sex: sex)) { "added: \(c.line(result, sex: sex))" }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Your results, newest first.",
      discussion: """
        Examples:
          vital labs list
          vital labs list --test ferritin --from 2020-01-01 --json
        """, aliases: ["ls"])
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this test.") var test: String?
    @Option(help: "From this day.") var from: LocalDate?
    @Option(help: "Through this day.") var to: LocalDate?

    func run() async throws {
      let c = try LabsContext(global)
      let results = try c.results(
        test: test, from: from?.start(in: c.app.calendar), before: to?.adding(days: 1).start(in: c.app.calendar))
      let sex = try c.sex
      try c.app.output.show(.array(results.map { c.json($0, sex: sex) })) {
        guard !results.isEmpty else {
          return test == nil && from == nil && to == nil
            ? "No lab results yet; add one with 'vital labs add ferritin 35 ng/mL --at 2026-11-20'."
            : "No lab results here."
        }
        // A donation's result by its test and the donation's first characters: `hb.9b1540dd`.
        var short = ShortID.prefixes(
          results.filter { $0.donationID == nil || !$0.id.hasPrefix($0.test + ".") }.map(\.id))
        for r in results where short[r.id] == nil { short[r.id] = r.test + "." + (r.donationID?.prefix(8) ?? "") }
        var table = TextTable(["id", "date", "test", "value", "range", "flag", "lab"])
        for r in results {
          let test = c.test(r)
          let range = r.range(test, sex: sex).map {
            LabsContext.range($0.low, $0.high, decimals: test?.decimals ?? 2)
              + (r.secondRange(test, sex: sex).map {
                "/" + LabsContext.range($0.low, $0.high, decimals: test?.decimals ?? 2)
              } ?? "")
          }
          let flag = r.flag(test, sex: sex).flatMap { $0 == .normal ? nil : $0.rawValue } ?? ""
          table.add([
            short[r.id] ?? r.id, c.when(r.at), test?.name ?? r.test, c.value(r), range ?? "", flag, r.source,
          ])
        }
        return table.text
      }
    }
  }
}

extension Int {
  fileprivate func floorDivided(by d: Int) -> Int { self >= 0 ? self / d : -((-self + d - 1) / d) }
  fileprivate func floorModulo(_ d: Int) -> Int { ((self % d) + d) % d }
}
