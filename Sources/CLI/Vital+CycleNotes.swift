import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension CycleNote.Flow: ExpressibleByArgument {}
extension CycleNote.Mucus: ExpressibleByArgument {}
extension CycleNote.Sex: ExpressibleByArgument {}
extension CycleNoteField: ExpressibleByArgument {}

extension App {
  func json(_ n: CycleNote) -> JSON {
    .object([
      ("date", .string(n.date.description)), ("flow", .optional(n.flow?.rawValue)),
      ("temperature", n.temperature.map(JSON.double) ?? .null), ("temperature_time", .optional(n.temperatureTime)),
      ("temperature_excluded", .bool(n.temperatureExcluded)), ("mucus", .optional(n.mucus?.rawValue)),
      ("pain", .array(n.pain.map(JSON.string))), ("mood", .array(n.mood.map(JSON.string))),
      ("sex", .optional(n.sex?.rawValue)), ("text", .optional(n.text)),
    ])
  }

  /// One line a person reads: the fields that are set.
  func line(_ n: CycleNote) -> String {
    var parts: [String] = []
    if let flow = n.flow { parts.append("flow \(flow.rawValue)") }
    if let t = n.temperature {
      parts.append(
        "\(String(format: "%.2f", t)) °C" + (n.temperatureTime.map { " at \($0)" } ?? "")
          + (n.temperatureExcluded ? " (left out)" : ""))
    }
    if let mucus = n.mucus { parts.append("mucus \(mucus.rawValue)") }
    if !n.pain.isEmpty { parts.append("pain: " + n.pain.joined(separator: ", ")) }
    if !n.mood.isEmpty { parts.append("mood: " + n.mood.joined(separator: ", ")) }
    if let sex = n.sex { parts.append("sex \(sex.rawValue)") }
    if let text = n.text { parts.append("\"\(text)\"") }
    return parts.isEmpty ? "nothing noted" : parts.joined(separator: "; ")
  }
}

extension Vital.Cycle {
  struct Note: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "note", abstract: "Note a day's flow, temperature, mucus, pain, mood, sex or text.",
      discussion: """
        The fields given replace those of that day's note; the others stay. Flow (not spotting) \
        on a day next to a period joins it; on a day apart from every period it starts one. \
        Temperatures are waking temperatures in °C; --exclude-temperature leaves one out of the \
        evaluation (fever, a late night).

        \(CyclePrediction.helpNote)

        Examples:
          vital cycle note --date 2026-11-03 --flow medium --pain cramps --mood tired
          vital cycle note --temperature 36.55 --temperature-time 06:30 --mucus creamy
          vital cycle note --date 2026-11-12 --exclude-temperature
          vital cycle note --date 2026-11-12 --clear mood --clear text
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: LocalDate?
    @Option(help: "spotting, light, medium or heavy.") var flow: CycleNote.Flow?
    @Option(help: "Waking temperature in °C, like 36.55.") var temperature: Double?
    @Option(help: "When it was taken, HH:MM.") var temperatureTime: String?
    @Flag(help: "Leave this day's temperature out of the evaluation.") var excludeTemperature = false
    @Option(help: "dry, moist, sticky, creamy or eggwhite.") var mucus: CycleNote.Mucus?
    @Option(help: "A pain (repeat for more; replaces the day's list).") var pain: [String] = []
    @Option(help: "A mood (repeat for more; replaces the day's list).") var mood: [String] = []
    @Option(help: "protected or unprotected.") var sex: CycleNote.Sex?
    @Option(help: "Free text.") var text: String?
    @Option(help: "A field to empty: flow, temperature, mucus, pain, mood, sex or text (repeatable).")
    var clear: [CycleNoteField] = []

    func run() async throws {
      let c = try CycleContext(global)
      var change = CycleNoteChange()
      change.flow = flow
      change.temperature = temperature
      change.temperatureTime = temperatureTime
      change.excludeTemperature = excludeTemperature
      change.mucus = mucus
      change.pain = pain.isEmpty ? nil : pain
      change.mood = mood.isEmpty ? nil : mood
      change.sex = sex
      change.text = text
      change.clear = Set(clear)
      let r = try c.store.note(date ?? c.app.today, change)
      guard case .object(var fields) = c.app.json(r.note) else { return }
      fields.append(("period", r.period.map(c.app.json) ?? .null))
      fields.append(("period_change", .optional(r.change?.rawValue)))
      try c.app.output.show(.object(fields)) {
        let human = HumanText(now: c.app.now, calendar: c.app.calendar)
        var text = "\(human.day(r.note.date)): \(c.app.line(r.note))"
        if let p = r.period, let change = r.change {
          switch change {
          case .started: text += "\nperiod started \(human.day(p.start))"
          default:
            text +=
              "\nperiod \(change.rawValue): \(human.day(p.start)) to \(p.end.map(human.day) ?? "ongoing")"
              + (p.length.map { ", \(HumanText.count($0, "day"))" } ?? "")
          }
        }
        return text
      }
    }
  }

  struct Day: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "day", abstract: "Show one day: its note, the cycle day and whether it is in a period.",
      discussion: """
        Examples:
          vital cycle day 2026-11-03
          vital cycle day today --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The day, YYYY-MM-DD or 'today'.") var date: String

    func run() async throws {
      let c = try CycleContext(global)
      guard let day = date == "today" ? c.app.today : LocalDate(date) else {
        throw ValidationError("'\(date.prefix(20))' is not a day; use YYYY-MM-DD or 'today'")
      }
      let note = try c.store.note(on: day) ?? CycleNote(date: day)
      let periods = try c.store.list()
      let start = periods.last(where: { $0.start <= day })?.start
      let inPeriod = periods.contains { $0.start <= day && day <= ($0.end ?? c.app.today) }
      guard case .object(var fields) = c.app.json(note) else { return }
      fields.append(("cycle_day", start.map { .int($0.days(to: day) + 1) } ?? .null))
      fields.append(("in_period", .bool(inPeriod)))
      try c.app.output.show(.object(fields)) {
        var head = "\(day)"
        if let start { head += ": cycle day \(start.days(to: day) + 1)" + (inPeriod ? ", period" : "") }
        return head + "\n" + c.app.line(note)
      }
    }
  }

  struct Notes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "notes", abstract: "Daily notes, oldest first.",
      discussion: """
        Examples:
          vital cycle notes --from 2026-11-01
          vital cycle notes --from 2026-10-01 --to 2026-10-31 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The first day (default: all).") var from: LocalDate?
    @Option(help: "The last day (default: all).") var to: LocalDate?

    func validate() throws {
      if let from, let to, to < from { throw ValidationError("--to \(to) is before --from \(from)") }
    }

    func run() async throws {
      let c = try CycleContext(global)
      let notes = try c.store.notes(from: from, to: to)
      try c.app.output.show(.array(notes.map(c.app.json))) {
        guard !notes.isEmpty else { return "No notes; add one with 'vital cycle note --date D --flow light'." }
        return notes.map { "\($0.date)  \(c.app.line($0))" }.joined(separator: "\n")
      }
    }
  }
}

extension Vital.Cycle {
  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import", abstract: "Import daily notes and periods from drip (CSV) or Clue (JSON).",
      discussion: """
        drip: Settings, Data, Export (CSV). Clue: the JSON file of its data export. Each day's \
        note takes the fields the file has; flow on consecutive days makes periods (a period \
        overlapping one logged differently is left alone and listed). All or nothing: a bad line \
        or element is named and nothing is written. Importing again adds nothing.

        Examples:
          vital cycle import drip-export.csv
          vital cycle import ClueDataExport.json --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file, or - for stdin.") var file: String

    func run() async throws {
      let c = try CycleContext(global)
      let handle = try InputFile.open(file)
      defer { try? handle.close() }
      let r = try c.store.importNotes(head: []) { count in [UInt8](try handle.read(upToCount: count) ?? Data()) }
      let json = JSON.object([
        ("format", .string(r.format.rawValue)), ("days", .int(r.days)), ("added", .int(r.added)),
        ("changed", .int(r.changed)), ("unchanged", .int(r.unchanged)), ("periods_added", .int(r.periodsAdded)),
        ("periods_unchanged", .int(r.periodsUnchanged)), ("conflicts", .array(r.conflicts.map(JSON.string))),
      ])
      try c.app.output.show(json) {
        var text =
          "\(r.format.rawValue): \(HumanText.count(r.days, "day")), \(HumanText.count(r.added, "note")) added, \(r.changed) changed, \(r.unchanged) unchanged; periods: \(r.periodsAdded) added, \(r.periodsUnchanged) already logged"
        if !r.conflicts.isEmpty {
          text += "\nleft alone, overlapping periods logged differently: \(r.conflicts.joined(separator: ", "))"
        }
        return text
      }
    }
  }
}
