import ArgumentParser
import CLICore
import Core
import Foundation
import Health

extension Vital {
  struct Goals: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "goals", abstract: "Daily goals for steps and walking or running distance.",
      subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Progress.self, Import.self],
      aliases: ["goal"])
  }
}

extension Goal.Kind: ExpressibleByArgument {}

struct GoalsContext {
  let app: App
  let store: GoalStore

  init(_ global: GlobalOptions) throws {
    app = try App(global)
    store = GoalStore(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
  }

  func json(_ g: Goal) -> JSON {
    .object([
      ("id", .string(g.id)), ("type", .string(g.kind.rawValue)), ("target", .double(g.target)),
      ("title", .optional(g.title)), ("description", .optional(g.description)),
    ])
  }

  func line(_ g: Goal) -> String {
    "\(g.id)  \(Self.target(g))  \(g.title ?? "")"
  }

  static func target(_ g: Goal) -> String {
    g.kind == .steps ? "\(Int(g.target)) steps" : String(format: "%.0f m", g.target)
  }

  /// Goals in columns, each id as short as still tells it apart (a catalogue's ids differ at
  /// their end, so those stay whole).
  func table(_ goals: [Goal]) -> String {
    let short = ShortID.prefixes(goals.map(\.id))
    var table = TextTable(["id", "type", "target", "title"])
    for g in goals { table.add([short[g.id] ?? g.id, g.kind.rawValue, Self.target(g), g.title ?? ""]) }
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
          vital goals add --type running-distance --target 5000 --title "Weekend run"
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "steps, walking-distance or running-distance.") var type: Goal.Kind
    @Option(help: "Steps, or metres for distances.") var target: Double
    @Option(help: "A name for it.") var title: String?

    func run() async throws {
      let c = try GoalsContext(global)
      let goal = try c.store.add(type, target: target, title: title)
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
      // The Health app's rings, where the export has them for the day, in the same shape.
      var rows = progress.map { ($0.goal.id, $0.goal.kind.rawValue, $0.goal.target, $0.value, $0.goal.title) }
      if let a = totals.activity {
        let rings: [(String, Double?, Double?)] = [
          ("move", a.moveKcal ?? a.moveMinutes, a.moveKcal != nil ? a.moveKcalGoal : a.moveMinutesGoal),
          ("exercise", a.exerciseMinutes, a.exerciseGoal), ("stand", a.standHours, a.standGoal),
        ]
        for (name, value, goal) in rings {
          if let value, let goal, goal > 0 {
            rows.append(("activity-\(name)", name, goal, value, "Activity ring: \(name)"))
          }
        }
      }
      let json = JSON.array(
        rows.map { row in
          .object([
            ("id", .string(row.0)), ("type", .string(row.1)), ("target", .double(row.2)),
            ("value", HealthJSON.number(row.3)), ("percent", HealthJSON.number(row.3 / row.2 * 100)),
            ("title", .optional(row.4)),
          ])
        })
      try c.app.output.show(json) {
        var lines = progress.map { p in
          let filled = min(20, Int((p.percent / 5).rounded(.down)))
          let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
          return String(format: "[%@] %6.1f%%  ", bar, p.percent)
            + "\(Int(p.value.rounded()))/\(Int(p.goal.target))  \(p.goal.title ?? p.goal.kind.rawValue)"
        }
        if lines.isEmpty { lines.append("No goals; add one with 'vital goals add --type steps --target 8000'.") }
        if let a = totals.activity {
          lines.append(
            "rings on \(day): move \(HealthJSON.ratio(a.moveKcal ?? a.moveMinutes, a.moveKcalGoal ?? a.moveMinutesGoal)), exercise \(HealthJSON.ratio(a.exerciseMinutes, a.exerciseGoal)), stand \(HealthJSON.ratio(a.standHours, a.standGoal))"
          )
        }
        return lines.joined(separator: "\n")
      }
    }
  }
}
