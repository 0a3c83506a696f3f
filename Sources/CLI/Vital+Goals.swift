import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital {
  struct Goals: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "goals", abstract: "Daily goals for steps, distance and running distance.",
      subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Progress.self, Import.self, Export.self],
      aliases: ["goal"])
  }
}

extension Goal.Kind: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public static var allValueStrings: [String] { allCases.map(\.name) }
}

extension Context where Store == GoalStore {
  func json(_ g: Goal) -> JSON {
    .object([
      ("id", .string(g.id)), ("type", .string(g.kind.name)), ("target", .double(g.target)),
      ("unit", .string(g.kind.measure.unit)),
      ("title", .optional(g.title)), ("description", .optional(g.description)),
    ])
  }

  func line(_ g: Goal) -> String {
    "\(HumanText.shortID(g.id))  \(g.kind.name)  \(Self.target(g))" + (g.title.map { "  \($0)" } ?? "")
  }

  static func target(_ g: Goal) -> String { g.kind.measure.text(g.target) }

  /// A day's progress: `value` and `percent` are null when that day has no data.
  func json(_ p: Goal.Progress) -> JSON {
    .object([
      ("id", .string(p.goal.id)), ("type", .string(p.goal.kind.name)), ("target", .double(p.goal.target)),
      ("unit", .string(p.goal.kind.measure.unit)), ("value", HealthJSON.number(p.value)),
      ("percent", HealthJSON.number(p.percent)), ("title", .optional(p.goal.title)),
      ("last_data", .optional(p.lastData?.description)),
    ])
  }

  /// `[##########----------]   52%  2.6 km of 5 km  distance`, or, for a day without data,
  /// `[no data since Wed 18 Nov]  goal 5 km  distance`: a bar at 0 % would say nothing was walked.
  static func bar(_ p: Goal.Progress, human: HumanText) -> String {
    let measure = p.goal.kind.measure
    // "8000 steps" names itself; a distance says which.
    let name = p.goal.title.map { "  \($0)" } ?? (p.goal.kind == .steps ? "" : "  \(p.goal.kind.name)")
    guard let value = p.value, let percent = p.percent else {
      let since = p.lastData.map { "no data since \(human.day($0))" } ?? "no data yet"
      return
        "[\(since.padding(toLength: max(20, since.count), withPad: " ", startingAt: 0))]  goal \(measure.text(p.goal.target))\(name)"
    }
    let filled = max(0, min(20, (percent / 5).rounded(.down).saturatingInt))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
    return "[\(bar)] " + String(format: "%4.0f%%", percent)
      + "  \(measure.text(value)) of \(measure.text(p.goal.target))\(name)"
  }

  /// Goals in columns, each id as short as still tells it apart (a catalogue's ids differ at
  /// their end, so those stay whole).
  func table(_ goals: [Goal]) -> String {
    let short = ShortID.prefixes(goals.map(\.id))
    var table = TextTable(["id", "type", "target", "title"])
    for g in goals { table.add([short[g.id] ?? g.id, g.kind.name, Self.target(g), g.title ?? ""]) }
    return table.text
  }
}

extension Vital.Goals {
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a daily goal.",
      discussion: """
        Examples:
          vital goals add --type steps --target 8000
          vital goals add --type distance --target 5km
          vital goals add --type running-distance --target "3 mi" --title "Weekend run"

        'walking-distance' is the name 'distance' had before; it is still taken.
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "steps, distance or running-distance.") var type: Goal.Kind
    @Option(help: "Steps, or a distance with its unit: 5km, 3 mi, 800m (a bare number is metres).") var target: String
    @Option(help: "A name for it.") var title: String?

    func run() async throws {
      let c = try GoalsContext(global)
      let goal = try c.store.add(type, target: try type.measure.amount(target, option: "--target"), title: title)
      try c.app.output.show(c.json(goal)) { "added: \(c.line(goal))" }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Your goals.",
      discussion: """
        Examples:
          vital goals list
          vital goals ls --json
        """, aliases: ["ls"])
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try GoalsContext(global)
      let goals = try c.store.list()
      try c.app.output.show(.array(goals.map(c.json))) {
        goals.isEmpty
          ? "No goals; add one with 'vital goals add --type steps --target 8000'."
          : c.table(goals)
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import", abstract: "Import the goals app's catalogue (JSON); importing again changes nothing.",
      discussion: """
        Examples:
          vital goals import goals.json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The catalogue file, or - for stdin.") var file: String

    func run() async throws {
      let c = try GoalsContext(global)
      let (added, unchanged) = try c.store.importCatalogue(try InputFile.read(file, limit: 16 << 20))
      try c.app.output.show(.object([("added", .int(added)), ("unchanged", .int(unchanged))])) {
        "imported goals: \(added) new or changed, \(unchanged) unchanged"
      }
    }
  }

  struct Progress: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "progress", abstract: "How far each goal got on a day, and the Health app's rings.",
      discussion: """
        Examples:
          vital goals progress
          vital goals progress --date 2026-11-20 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: LocalDate?

    func run() async throws {
      let c = try GoalsContext(global)
      let day = date ?? c.app.today
      let (progress, totals) = try c.store.progress(on: day)
      var rows = progress.map(c.json)
      // The Health app's rings, where the export has them for the day, in the same shape.
      if let a = totals.activity {
        let rings: [(String, Double?, Double?, String)] = [
          (
            "move", a.moveKcal ?? a.moveMinutes, a.moveKcal != nil ? a.moveKcalGoal : a.moveMinutesGoal,
            a.moveKcal != nil ? "kcal" : "min"
          ),
          ("exercise", a.exerciseMinutes, a.exerciseGoal, "min"), ("stand", a.standHours, a.standGoal, "h"),
        ]
        for (name, value, goal, unit) in rings {
          guard let value, let goal, goal > 0 else { continue }
          rows.append(
            .object([
              ("id", .string("activity-\(name)")), ("type", .string(name)), ("target", .double(goal)),
              ("unit", .string(unit)), ("value", HealthJSON.number(value)),
              ("percent", HealthJSON.number(value / goal * 100)), ("title", .string("Activity ring: \(name)")),
              ("last_data", .string(day.description)),
            ]))
        }
      }
      try c.app.output.show(.array(rows)) {
        let human = HumanText(now: c.app.now, calendar: c.app.calendar)
        var lines = progress.map { GoalsContext.bar($0, human: human) }
        if lines.isEmpty { lines.append("No goals; add one with 'vital goals add --type steps --target 8000'.") }
        if let a = totals.activity {
          lines.append(
            "rings on \(human.day(day)): move \(HealthJSON.ratio(a.moveKcal ?? a.moveMinutes, a.moveKcalGoal ?? a.moveMinutesGoal)), exercise \(HealthJSON.ratio(a.exerciseMinutes, a.exerciseGoal)), stand \(HealthJSON.ratio(a.standHours, a.standGoal))"
          )
        }
        return lines.joined(separator: "\n")
      }
    }
  }
}
