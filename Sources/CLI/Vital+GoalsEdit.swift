import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension Vital.Goals {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one goal.",
      discussion: """
        Examples:
          vital goals show 3f2a
          vital goals show catalogue-10 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The goal's id, or its first characters (see 'vital goals list').") var id: String

    func run() async throws {
      let c = try GoalsContext(global)
      let g = try c.store.find(id)
      try c.app.output.show(c.json(g)) {
        var table = TextTable(["field", "value"])
        table.add(["id", g.id])
        table.add(["type", g.kind.name])
        table.add(["target", GoalsContext.target(g)])
        table.add(["title", g.title ?? "-"])
        table.add(["description", g.description ?? "-"])
        return table.text
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Change a goal: only the given fields change.",
      discussion: """
        Fields: --type, --target, --title and --description ('' clears those two).

        Examples:
          vital goals edit 3f2a --target 9000
          vital goals edit catalogue-10 --title '' --description 'after work'
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The goal's id, or its first characters (see 'vital goals list').") var id: String
    @Option(help: "steps, distance or running-distance.") var type: Goal.Kind?
    @Option(help: "Steps, or a distance with its unit: 5km, 3 mi, 800m (a bare number is metres).") var target: String?
    @Option(help: "A name for it ('' clears it).") var title: String?
    @Option(help: "What it is about ('' clears it).") var description: String?

    func validate() throws {
      if type == nil && target == nil && title == nil && description == nil {
        throw ValidationError("say what to change: --type, --target, --title or --description")
      }
    }

    func run() async throws {
      let c = try GoalsContext(global)
      let kind = try type ?? c.store.find(id).kind
      let goal = try c.store.edit(
        id,
        .init(
          kind: type, target: try target.map { try kind.measure.amount($0, option: "--target") },
          title: title.map { $0.isEmpty ? nil : $0 },
          description: description.map { $0.isEmpty ? nil : $0 }))
      try c.app.output.show(c.json(goal)) { "edited: \(c.line(goal))" }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a goal ('vital undo' brings it back).",
      discussion: """
        Examples:
          vital goals delete 3f2a --yes
          vital goals rm catalogue-10
        """,
      aliases: ["remove", "rm"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The goal's id, or its first characters (see 'vital goals list').") var id: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try GoalsContext(global)
      let goal = try c.store.find(id)
      guard try Confirmation.ask("Delete goal \(c.line(goal))?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      try c.store.remove(goal.id)
      try c.app.output.show(c.json(goal)) { "deleted: \(c.line(goal))" }
    }
  }
}
