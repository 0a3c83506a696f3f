import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Storage

extension VitalKind: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
}

extension Vital.HealthCommand {
  struct Vitals: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "vitals", abstract: "Heart rate, weight, blood pressure, oxygen and more: latest, or a trend.",
      discussion: """
        Without --type: the latest reading of each kind, and the last 30 days' range. With \
        --type: one row per day (default 14), week or month up to today with the readings' \
        count, lowest, average and highest, drawn as a range; a period without a reading says \
        "no data". Units are one per kind whatever the export wrote: bpm, ms, kg (pounds and \
        stones converted), mmHg, %, breaths/min. A blood pressure is one reading, systolic over \
        diastolic, as Apple Health's correlation keeps it.

        Types: heart-rate (hr, pulse), resting-heart-rate, hrv, weight, blood-pressure (bp), \
        spo2, respiratory-rate.

        Examples:
          vital health vitals
          vital health vitals --type weight --months 12
          vital health vitals --type bp --weeks 8 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The kind of reading; also hr or pulse, rhr, bp, oxygen, breathing, sdnn.")
    var type: VitalKind?
    @OptionGroup var periods: PeriodOptions

    func validate() throws {
      if type == nil && periods.given { throw ValidationError("--days, --weeks and --months go with --type") }
    }

    func run() async throws {
      let app = try App(global)
      let store = HealthStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
      guard let type else { return try overview(app, store) }
      let rows = try store.vitals(type, periods.period)
      try app.output.show(.array(rows.map { Self.json($0, type) })) {
        guard rows.contains(where: { $0.value != nil }) else {
          return try Self.none(type, periods.period, last: try store.lastSampleDay(type: type.type), app)
        }
        return VitalsChart(kind: type, rows: rows, width: Output.width).text
      }
    }

    /// Nothing in the periods asked for: where the last reading is, or how to bring some.
    static func none(_ kind: VitalKind, _ period: Records.Trend.Period, last: LocalDate?, _ app: App) throws -> String {
      let stretch =
        switch period {
        case .days(let n): HumanText.count(n, "day")
        case .weeks(let n): HumanText.count(n, "week")
        case .months(let n): HumanText.count(n, "month")
        }
      guard let last else {
        return "No \(kind.label) yet: 'vital health import' brings it from Apple Health or Gadgetbridge."
      }
      let back = last.days(to: LocalDate(app.now, in: app.calendar), in: app.calendar) + 1
      return "No \(kind.label) in the last \(stretch); the last reading was on \(last):"
        + " 'vital health vitals --type \(kind.rawValue) --days \(back)' reaches it."
    }

    func overview(_ app: App, _ store: HealthStore) throws {
      let month = try VitalKind.allCases.map { try ($0, store.vitals($0, .days(30))) }
      let latest = try store.latestVitals()
      let human = HumanText(now: app.now, calendar: app.calendar)
      let json = JSON.array(
        latest.map { kind, reading in
          var range = HealthStore.VitalStats()
          var lower = HealthStore.VitalStats()
          for row in month.first(where: { $0.0 == kind })!.1 {
            if let value = row.value { range.add(value) }
            if let value = row.diastolic { lower.add(value) }
          }
          return .object([
            ("type", .string(kind.rawValue)), ("unit", .string(kind.unit)),
            (
              "latest",
              .object([
                // Converted from lb or a fraction: to the places of the figures beside it.
                ("at", app.iso(reading.at)), ("value", .double(Self.round1(reading.value))),
                ("diastolic", reading.diastolic.map { .double(Self.round1($0)) } ?? .null),
                ("source", .string(reading.source)),
              ])
            ),
            ("last_30_days", range.count > 0 ? Self.stats(range) : .null),
            ("last_30_days_diastolic", lower.count > 0 ? Self.stats(lower) : .null),
          ])
        })
      try app.output.show(json) {
        guard !latest.isEmpty else {
          return
            "No vitals yet: 'vital health import' brings heart rate, weight, blood pressure and more from Apple Health."
        }
        let rows = latest.map { kind, reading -> [String] in
          var range = HealthStore.VitalStats()
          var lower = HealthStore.VitalStats()
          for row in month.first(where: { $0.0 == kind })!.1 {
            if let value = row.value { range.add(value) }
            if let value = row.diastolic { lower.add(value) }
          }
          let spanOf = { (s: HealthStore.VitalStats) in
            "\(VitalsChart.number(s.minimum, nil, kind))–\(VitalsChart.number(s.maximum, nil, kind))"
          }
          let span = range.count == 0 ? "–" : spanOf(range) + (lower.count > 0 ? " / " + spanOf(lower) : "")
          return [
            kind.label, VitalsChart.number(reading.value, reading.diastolic, kind) + " " + kind.unit,
            human.time(reading.at), span, reading.source,
          ]
        }
        var table = TextTable(["", "latest", "when", "30 days", "source"])
        for row in rows { table.add(row) }
        return table.text
      }
    }

    static func stats(_ s: HealthStore.VitalStats) -> JSON {
      .object([
        ("count", .int(s.count)), ("min", .double(round1(s.minimum))), ("avg", .double(round1(s.average))),
        ("max", .double(round1(s.maximum))),
      ])
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static func json(_ row: HealthStore.VitalsRow, _ kind: VitalKind) -> JSON {
      .object([
        ("period", .string(row.label)), ("from", .string(row.from.description)),
        ("through", .string(row.through.description)), ("unit", .string(kind.unit)),
        ("count", .int(row.value?.count ?? 0)), ("min", row.value.map { .double(round1($0.minimum)) } ?? .null),
        ("avg", row.value.map { .double(round1($0.average)) } ?? .null),
        ("max", row.value.map { .double(round1($0.maximum)) } ?? .null),
        ("diastolic", row.diastolic.map(stats) ?? .null), ("sources", .array(row.sources.map(JSON.string))),
      ])
    }
  }
}
