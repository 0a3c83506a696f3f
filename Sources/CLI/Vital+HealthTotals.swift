import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension HealthTotals.Measure: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }

  /// `value(text)` for an option, its error naming the option.
  func amount(_ text: String, option: String) throws -> Double {
    do {
      return try value(text)
    } catch let error as ValueError {
      throw CLIError.badOption(option, reason: error.description)
    }
  }
}

extension Vital.HealthCommand {
  struct Sources: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sources", abstract: "The sources of your samples, in the order their counts win.",
      discussion: """
        Where two sources measured the same minutes, the one ranked first counts. By default \
        watches rank first, then phones, then everything else (apps, samples added by hand), \
        ties by name. --prefer puts the named sources first, in the order given; the ranking is \
        kept, synced to your other devices, and used by every total from then on.

        Examples:
          vital health sources
          vital health sources --prefer "Anna's Apple Watch"
          vital health sources --reset
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Rank this source first (repeat for the next ones).", valueName: "name"))
    var prefer: [String] = []
    @Flag(help: "Forget the preferences: rank by kind of device again.") var reset = false

    func validate() throws {
      if reset && !prefer.isEmpty { throw ValidationError("--reset and --prefer go separately") }
    }

    func run() async throws {
      let app = try App(global)
      let store = HealthStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
      let sources = reset || !prefer.isEmpty ? try store.prefer(prefer) : try store.sources()
      let day = { (date: Date?) in date.map { LocalDate($0, in: app.calendar).description } }
      let json = JSON.array(
        sources.map { s in
          .object([
            ("rank", .int(s.rank)), ("name", .string(s.source.name)), ("kind", .string(s.source.kind.rawValue)),
            ("samples", .int(s.samples)), ("first", .optional(day(s.first))), ("last", .optional(day(s.last))),
            ("preferred", s.source.preferred.map { JSON.int($0) } ?? .null),
          ])
        })
      try app.output.show(json) {
        guard !sources.isEmpty else { return "No sources yet: import an export with 'vital health import FILE'." }
        let header = "rank  kind   samples     first       last        source"
        return
          ([header]
          + sources.map { s in
            String(
              format: "%4d  %-5@  %10d  %-10@  %-10@  ", s.rank, s.source.kind.rawValue, s.samples,
              day(s.first) ?? "-", day(s.last) ?? "-") + s.source.name
              + (s.source.preferred != nil ? "  (preferred)" : "")
          }).joined(separator: "\n")
      }
    }
  }

  struct Trend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "trend", abstract: "Totals per day, week or month, against your goal.",
      discussion: """
        The goal is --goal when given; else for steps and distance your smallest goal of that \
        type ('vital goals'), for energy and exercise the Apple Watch ring goal of each day. \
        A week or month counts its days up to today, against their goals added up.

        Examples:
          vital health trend --type steps
          vital health trend --type exercise --weeks 12 --goal 30
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "steps, distance, energy or exercise.") var type: HealthTotals.Measure
    @OptionGroup var periods: PeriodOptions
    @Option(help: "A daily goal to compare with, with its unit: 8000, 5km, 500kcal, 30min.") var goal: String?

    func run() async throws {
      let c = try GoalsContext(global)
      let trend = try c.store.trend(
        type, periods.period, today: c.app.today, goal: try goal.map { try type.amount($0, option: "--goal") })
      let json = JSON.array(
        trend.rows.map { row in
          .object([
            ("period", .string(row.label)), ("from", .string(row.from.description)),
            ("through", .string(row.through.description)), ("total", HealthJSON.number(row.total)),
            ("unit", .string(type.unit)), ("days_with_data", .int(row.daysWithData)),
            ("goal", HealthJSON.number(row.goal)), ("met", row.met.map(JSON.bool) ?? .null),
            ("days_met", .int(row.daysMet)),
          ])
        })
      try c.app.output.show(json) {
        TrendChart(
          trend: trend, width: Output.width, colour: Output.colour,
          human: HumanText(now: c.app.now, calendar: c.app.calendar)
        ).text
      }
    }
  }
}
