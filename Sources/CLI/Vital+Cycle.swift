import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital {
  struct Cycle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "cycle",
      abstract: "Periods, and the next periods, ovulation and fertile window predicted with ranges.",
      discussion: CyclePrediction.helpNote,
      subcommands: [
        Add.self, List.self, Show.self, Edit.self, Delete.self, Note.self, Day.self, Notes.self, Import.self,
        Predict.self,
        CalendarCommand.self, Pause.self, Pauses.self, Exclude.self, Include.self, Backtest.self, ImportHealth.self,
        Export.self,
      ],
      aliases: ["period", "periods", "cycles"])
  }
}

extension App {
  func json(_ p: Period) -> JSON {
    .object([
      ("id", .string(p.id)), ("start", .string(p.start.description)), ("end", .optional(p.end?.description)),
      ("excluded", .bool(p.excluded)),
    ])
  }

  func json(_ prediction: CyclePrediction, current: (start: LocalDate, signs: SymptoThermal)?) -> JSON {
    func range(_ r: ClosedRange<LocalDate>) -> JSON {
      .array([.string(r.lowerBound.description), .string(r.upperBound.description)])
    }
    return .object([
      ("based_on_cycles", .int(prediction.basedOnCycles)),
      (
        "cycle_length",
        .object([
          ("mean", .int(prediction.meanCycle)),
          ("sd", prediction.sd.map { JSON.double(($0 * 100).rounded() / 100) } ?? .null),
        ])
      ),
      ("period_length", .int(prediction.periodLength)),
      ("confidence", .string(prediction.confidence.rawValue)),
      (
        "late",
        prediction.late.map {
          .object([("expected", .string($0.expected.description)), ("days", .int($0.days))])
        } ?? .null
      ),
      (
        "predictions",
        .array(
          prediction.next.map { n in
            .object([
              ("start", .string(n.start.description)), ("start_range", range(n.startRange)),
              ("end", .string(n.end.description)), ("ovulation", .string(n.ovulation.description)),
              ("fertile_window", range(n.fertileWindow)),
            ])
          })
      ),
      (
        "left_out",
        .array(
          prediction.leftOut.map {
            .object([
              ("start", .string($0.start.description)), ("days", .int($0.days)),
              ("reason", .string($0.reason.rawValue)),
            ])
          })
      ),
      ("paused", prediction.paused.map(json) ?? .null),
      ("current_cycle", current.map { json(signs: $0.signs, start: $0.start) } ?? .null),
      ("note", .string(CyclePrediction.note)),
    ])
  }

  func json(signs s: SymptoThermal, start: LocalDate) -> JSON {
    .object([
      ("start", .string(start.description)),
      ("temperature_shift", .optional(s.temperatureShift?.firstHigh.description)),
      ("cover_line", s.temperatureShift.map { .double(($0.coverLine * 100).rounded() / 100) } ?? .null),
      ("temperature_confirmed", .optional(s.temperatureShift?.confirmed.description)),
      ("mucus_peak", .optional(s.mucusPeak?.peak.description)),
      ("mucus_confirmed", .optional(s.mucusPeak?.confirmed.description)),
      ("infertile_from", .optional(s.infertileFrom?.description)), ("method", .string(s.method.rawValue)),
    ])
  }
}

extension Vital.Cycle {
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a period, or set the end of the one that starts on --start ('log' is the same).",
      discussion: """
        Examples:
          vital cycle add --start 2026-11-02
          vital cycle log --start 2026-11-02 --end 2026-11-06
        """, aliases: ["log"])
    @OptionGroup var global: GlobalOptions
    @Option(help: "The first day, YYYY-MM-DD.") var start: LocalDate
    @Option(help: "The last day; leave out while it is ongoing.") var end: LocalDate?

    func run() async throws {
      let c = try CycleContext(global)
      let period = try c.store.log(start: start, end: end)
      try c.app.output.show(c.app.json(period)) {
        "logged: \(period.start) to \(period.end?.description ?? "ongoing")"
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Logged periods, oldest first.",
      discussion: """
        Examples:
          vital cycle list
          vital cycle ls --json
        """, aliases: ["ls"])
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try CycleContext(global)
      let periods = try c.store.list()
      try c.app.output.show(.array(periods.map(c.app.json))) {
        guard !periods.isEmpty else { return "No periods logged; add one with 'vital cycle add --start YYYY-MM-DD'." }
        let short = ShortID.prefixes(periods.map(\.id))
        var table = TextTable(["id", "start", "end", "length"])
        let latest = periods.last?.id
        for p in periods {
          // The latest period may still be going on: its days so far are not its length.
          let underWay = p.id == latest && p.underWay(today: c.app.today)
          table.add([
            short[p.id] ?? p.id, p.start.description, underWay ? "under way" : p.end?.description ?? "-",
            underWay
              ? "day \(p.start.days(to: c.app.today) + 1)" : p.length.map { HumanText.count($0, "day") } ?? "ongoing",
          ])
        }
        return table.text
      }
    }
  }

  struct Predict: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "predict", abstract: "The next periods, ovulation and fertile windows, with ranges.",
      discussion: """
        With daily temperatures and mucus noted ('vital cycle note'), the cycle under way is also \
        evaluated by the sympto-thermal rules (docs/nfp.md): the temperature shift, its cover \
        line, the mucus peak and the day from which the rest of the cycle counts as infertile.

        \(CyclePrediction.helpNote)

        Examples:
          vital cycle predict
          vital cycle predict --count 6 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "How many periods to predict (1-24).") var count = 3

    func run() async throws {
      let c = try CycleContext(global)
      let p = try c.store.predict(count: count)
      let current = try c.store.currentSigns()
      try c.app.output.show(c.app.json(p, current: current)) {
        if let pause = p.paused {
          return
            "Paused (\(pause.reason.rawValue)) from \(pause.from) to \(pause.to?.description ?? "open"): nothing is predicted.\n\(CyclePrediction.note)"
        }
        var lines = [
          p.confidence == .high
            ? "Cycle \(p.meanCycle) days (sd \(String(format: "%.1f", p.sd ?? 0)), from \(p.basedOnCycles) cycles), period \(p.periodLength) days."
            : "Fewer than 3 cycles logged: predicting from a \(p.meanCycle)-day cycle and a \(p.periodLength)-day period (low confidence)."
        ]
        let human = HumanText(now: c.app.now, calendar: c.app.calendar)
        if let late = p.late {
          lines.append(
            "The period expected around \(human.day(late.expected)) has not been logged: \(HumanText.count(late.days, "day")) late. Once it starts: 'vital cycle note --flow medium'."
          )
        }
        for n in p.next {
          lines.append(
            "  period \(human.day(n.start)) (\(human.day(n.startRange.lowerBound)) to \(human.day(n.startRange.upperBound))) until \(human.day(n.end)); ovulation \(human.day(n.ovulation)), fertile \(human.day(n.fertileWindow.lowerBound)) to \(human.day(n.fertileWindow.upperBound))"
          )
        }
        if !p.leftOut.isEmpty {
          lines.append(
            "Left out: "
              + p.leftOut.map { "\($0.start) (\($0.days) days, \($0.reason.rawValue))" }.joined(separator: ", "))
        }
        if let (start, s) = current {
          if let from = s.infertileFrom {
            lines.append(
              "This cycle (from \(start)): temperature shift \(s.temperatureShift!.firstHigh) over \(String(format: "%.2f", s.temperatureShift!.coverLine)) °C, mucus peak \(s.mucusPeak!.peak); infertile from \(from) by the sympto-thermal rules."
            )
          } else if let shift = s.temperatureShift {
            lines.append(
              "This cycle (from \(start)): temperature shift \(shift.firstHigh); no mucus peak yet, so not confirmed.")
          }
        }
        return (lines + [CyclePrediction.note]).joined(separator: "\n")
      }
    }
  }

  struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "calendar", abstract: "A month grid marking logged, predicted, fertile and ovulation days.",
      discussion: """
        Examples:
          vital cycle calendar
          vital cycle calendar --month 2026-12
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The month, YYYY-MM (default: this month).") var month: String?

    func run() async throws {
      let c = try CycleContext(global)
      let today = c.app.today
      var (year, m) = (today.year, today.month)
      if let month {
        guard let first = LocalDate(month + "-01") else {
          throw ValidationError("--month '\(month.prefix(20))' is not a month; use YYYY-MM")
        }
        (year, m) = (first.year, first.month)
      }
      let days = try c.store.calendar(year: year, month: m)
      let json = JSON.array(
        days.map {
          .object([("date", .string($0.0.description)), ("marks", .array($0.1.map { .string($0.rawValue) }))])
        })
      try c.app.output.show(json) {
        CalendarGrid.text(year: year, month: m, days: days, today: today, colour: Output.colour)
      }
    }
  }

  struct ImportHealth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import-health",
      abstract: "Make periods from imported Apple Health menstrual-flow records (consecutive days form one).",
      discussion: """
        Examples:
          vital health import export.zip && vital cycle import-health
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try CycleContext(global)
      let r = try c.store.importFromHealth(
        flowDays: HealthStore(c.store.scope).menstrualFlowDays(in: c.app.calendar))
      let json = JSON.object([
        ("found", .int(r.found)), ("added", .int(r.added)), ("unchanged", .int(r.unchanged)),
        ("conflicts", .array(r.conflicts.map(JSON.string))),
      ])
      try c.app.output.show(json) {
        var text =
          "\(HumanText.count(r.found, "period")) in the health data: \(r.added) added, \(r.unchanged) already logged"
        if !r.conflicts.isEmpty {
          text += "\nleft alone, overlapping periods logged differently: \(r.conflicts.joined(separator: ", "))"
        }
        return text
      }
    }
  }
}
