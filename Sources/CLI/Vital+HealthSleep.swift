import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Storage

extension Vital.HealthCommand {
  struct Sleep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sleep", abstract: "Your nights: time in bed, asleep, each stage, awake.",
      discussion: """
        One row per night, on the day it ends; shorter sleeps that ended the same day are naps, \
        counted apart. Each moment takes the stage its best-ranked source gives it ('vital health \
        sources'): a watch's stages win over a phone app's "asleep", and samples that overlap \
        count once. A night no source said anything of is "no data", never zero; one known only \
        as "in bed" (older iPhones) has no stages.

        Examples:
          vital health sleep
          vital health sleep --days 90 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The last N nights.") var days = 14

    func validate() throws {
      guard (1...3660).contains(days) else { throw ValidationError("--days must be from 1 to 3660") }
    }

    func run() async throws {
      let app = try App(global)
      let store = HealthStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
      let nights = try store.sleep(days: days)
      try app.output.show(.array(nights.map { Self.json($0.day, $0.night, app) })) {
        guard nights.contains(where: { $0.night != nil }) else {
          return Self.none(nights.count, last: try store.lastSampleDay(type: SleepState.type), app)
        }
        return Self.table(nights, calendar: app.calendar)
      }
    }

    /// Nothing in the nights asked for: where the last night is, or how to bring some.
    static func none(_ count: Int, last: LocalDate?, _ app: App) -> String {
      guard let last else {
        return "No sleep yet: 'vital health import' brings it from Apple Health or Gadgetbridge."
      }
      let back = last.days(to: LocalDate(app.now, in: app.calendar), in: app.calendar) + 1
      return "No sleep in the last \(HumanText.count(count, "night")); the last recorded began on \(last):"
        + " 'vital health sleep --days \(back)' reaches it."
    }

    /// Whether the night tells `state`: it has stages (a phone's plain "asleep" is none), and one
    /// of its sources reports this one. The text's '–' and the JSON's null say the same.
    static func known(_ night: SleepNight, _ state: SleepState) -> Bool {
      night.isStaged && !night.unknown.contains(state)
    }

    static func json(_ day: LocalDate, _ night: SleepNight?, _ app: App) -> JSON {
      let seconds = { (value: Int?) in value.map { JSON.int($0) } ?? .null }
      let time = { (date: Date?) in app.iso(date) }
      return .object([
        ("date", .string(day.description)), ("bedtime", time(night?.bedtime)), ("wake", time(night?.wake)),
        ("in_bed_s", seconds(night?.inBed)), ("asleep_s", seconds(night?.asleep)),
        ("core_s", seconds(night.flatMap { known($0, .core) ? $0.stages[.core, default: 0] : nil })),
        ("deep_s", seconds(night.flatMap { known($0, .deep) ? $0.stages[.deep, default: 0] : nil })),
        ("rem_s", seconds(night.flatMap { known($0, .rem) ? $0.stages[.rem, default: 0] : nil })),
        ("asleep_unstaged_s", seconds(night.flatMap { $0.asleep == nil ? nil : $0.stages[.asleep, default: 0] })),
        ("awake_s", seconds(night.flatMap { known($0, .awake) ? $0.awake : nil })),
        ("awake_periods", seconds(night.flatMap { known($0, .awake) ? $0.awakePeriods : nil })),
        ("sources", .array((night?.sources ?? []).map(JSON.string))),
        (
          "naps",
          .array(
            (night?.naps ?? []).map { nap in
              .object([
                ("start", time(nap.start)), ("end", time(nap.end)), ("in_bed_s", .int(nap.inBed)),
                ("asleep_s", seconds(nap.asleep)),
              ])
            })
        ),
      ])
    }

    /// `7h 36m`, `45m`.
    static func duration(_ seconds: Int?) -> String {
      guard let seconds else { return "–" }
      let minutes = (seconds + 30) / 60
      return minutes >= 60 ? "\(minutes / 60)h \(HumanText.twoDigits(minutes % 60))m" : "\(minutes)m"
    }

    static func table(_ nights: [(day: LocalDate, night: SleepNight?)], calendar: Calendar) -> String {
      let clock = { (date: Date) -> String in
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return HumanText.twoDigits(c.hour!) + ":" + HumanText.twoDigits(c.minute!)
      }
      let header = "night        bed    wake   in bed   asleep   core     deep     REM      awake       source"
      let rows = nights.map { day, night -> String in
        let label = HumanText.padded(HumanText.short(day), to: 11)
        guard let night else { return label + "  –      –      no data" }
        let cell = { (text: String) in HumanText.padded(text, to: 7) }
        let stage = { (state: SleepState) in
          cell(known(night, state) ? duration(night.stages[state, default: 0]) : "–")
        }
        let awake = known(night, .awake) ? "\(duration(night.awake)) (\(night.awakePeriods)×)" : "–"
        var line = "\(label)  \(clock(night.bedtime))  \(clock(night.wake))  \(cell(duration(night.inBed)))  "
        line += "\(cell(duration(night.asleep)))  \(stage(.core))  \(stage(.deep))  \(stage(.rem))  "
        line += HumanText.padded(awake, to: 10) + "  " + (night.sources.first ?? "")
        if !night.naps.isEmpty {
          line +=
            "  + \(HumanText.count(night.naps.count, "nap")) (\(duration(night.naps.reduce(0) { $0 + ($1.asleep ?? $1.inBed) })))"
        }
        return line
      }
      return ([header] + rows).joined(separator: "\n")
    }
  }
}
