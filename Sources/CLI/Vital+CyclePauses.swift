import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension CyclePause.Reason: ExpressibleByArgument {}

extension App {
  func json(_ p: CyclePause) -> JSON {
    .object([
      ("id", .string(p.id)), ("from", .string(p.from.description)), ("to", .optional(p.to?.description)),
      ("reason", .string(p.reason.rawValue)),
    ])
  }
}

extension Vital.Cycle {
  struct Pause: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "pause",
      abstract: "Pause predictions (pregnancy, breastfeeding, contraception): cycles in a pause do not count.",
      discussion: """
        No predictions or cycle reminders while a pause lasts; cycles that overlap one are left \
        out of the statistics. Given the same --from again, it sets that pause's end and reason; \
        --delete removes it.

        Examples:
          vital cycle pause --from 2026-03-01 --reason pregnancy
          vital cycle pause --from 2026-03-01 --to 2026-12-10 --reason pregnancy
          vital cycle pause --from 2026-03-01 --delete
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The first day, YYYY-MM-DD.") var from: LocalDate
    @Option(help: "The last day; leave out while it lasts.") var to: LocalDate?
    @Option(help: "pregnancy, breastfeeding, contraception or other.") var reason: CyclePause.Reason?
    @Flag(help: "Delete the pause that starts on --from.") var delete = false

    func validate() throws {
      if delete && (to != nil || reason != nil) { throw ValidationError("--delete takes only --from") }
      if !delete && reason == nil {
        throw ValidationError("say why: --reason pregnancy|breastfeeding|contraception|other")
      }
    }

    func run() async throws {
      let c = try CycleContext(global)
      if delete {
        let p = try c.store.deletePause(from: from)
        try c.app.output.show(c.app.json(p)) { "deleted the pause from \(p.from) ('vital undo' brings it back)" }
        return
      }
      let p = try c.store.pause(from: from, to: to, reason: reason!)
      try c.app.output.show(c.app.json(p)) {
        "paused (\(p.reason.rawValue)): \(p.from) to \(p.to?.description ?? "open")"
      }
    }
  }

  struct Pauses: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "pauses", abstract: "Pauses, oldest first.",
      discussion: """
        Examples:
          vital cycle pauses --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try CycleContext(global)
      let pauses = try c.store.pauses()
      try c.app.output.show(.array(pauses.map(c.app.json))) {
        guard !pauses.isEmpty else { return "No pauses." }
        var table = TextTable(["from", "to", "reason"])
        for p in pauses { table.add([p.from.description, p.to?.description ?? "open", p.reason.rawValue]) }
        return table.text
      }
    }
  }

  struct Exclude: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "exclude", abstract: "Leave the cycle that starts on --start out of the statistics.",
      discussion: """
        Examples:
          vital cycle exclude --start 2026-06-02
          vital cycle include --start 2026-06-02
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The first day of the cycle's period.") var start: LocalDate

    func run() async throws { try Self.set(global, start, excluded: true) }

    static func set(_ global: GlobalOptions, _ start: LocalDate, excluded: Bool) throws {
      let c = try CycleContext(global)
      let p = try c.store.setExcluded(start: start, excluded)
      try c.app.output.show(c.app.json(p)) {
        (excluded ? "left out" : "counted again") + ": the cycle from \(p.start)"
      }
    }
  }

  struct Include: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "include", abstract: "Count a cycle left out with 'exclude' again.",
      discussion: """
        Examples:
          vital cycle include --start 2026-06-02
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The first day of the cycle's period.") var start: LocalDate

    func run() async throws { try Exclude.set(global, start, excluded: false) }
  }

  struct Backtest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "backtest", abstract: "How good the predictions have been: each period against its prediction.",
      discussion: """
        For every logged period from the fourth on: what 'vital cycle predict' says from the \
        periods before it alone, on the day after the period before it ended, against the day \
        it started. Cycles left out (excluded, paused, too long) are shown but not counted.

        Examples:
          vital cycle backtest
          vital cycle backtest --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try CycleContext(global)
      let b = try CycleBacktest.run(periods: c.store.list(), pauses: c.store.pauses())
      func round2(_ x: Double?) -> JSON { x.map { .double(($0 * 100).rounded() / 100) } ?? .null }
      let rows = b.rows.map { r -> JSON in
        .object([
          ("start", .string(r.start.description)), ("as_of", .string(r.asOf.description)),
          ("predicted", .optional(r.predicted?.description)),
          (
            "range",
            r.range.map { .array([.string($0.lowerBound.description), .string($0.upperBound.description)]) } ?? .null
          ),
          ("error_days", r.errorDays.map(JSON.int) ?? .null), ("in_range", r.inRange.map(JSON.bool) ?? .null),
          ("left_out", .optional(r.leftOut?.rawValue)),
        ])
      }
      let json = JSON.object([
        ("cycles", .array(rows)),
        (
          "overall",
          .object([
            ("mean_absolute_error", round2(b.meanAbsoluteError)), ("in_range_share", round2(b.inRangeShare)),
            ("cycles", .int(b.counted.count)),
          ])
        ),
      ])
      try c.app.output.show(json) {
        var table = TextTable(["start", "predicted", "range", "error", "in range"])
        for r in b.rows {
          table.add([
            r.start.description, r.predicted?.description ?? "-",
            r.range.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "-",
            r.leftOut.map { "(\($0.rawValue))" } ?? r.errorDays.map { ($0 > 0 ? "+" : "") + "\($0) d" } ?? "-",
            r.inRange.map { $0 ? "yes" : "no" } ?? "-",
          ])
        }
        let summary =
          b.meanAbsoluteError.map {
            "\(b.counted.count) cycle\(b.counted.count == 1 ? "" : "s"): off by \(String(format: "%.1f", $0)) days on average, \(Int(((b.inRangeShare ?? 0) * 100).rounded()))% within the predicted range."
          } ?? "No cycle to score yet."
        return table.text + "\n" + summary
      }
    }
  }
}
