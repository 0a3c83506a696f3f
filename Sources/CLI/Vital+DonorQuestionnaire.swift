import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital.Donor.QuestionnaireCommand {
  struct Results: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "Stored questionnaire results, newest first.",
      discussion: """
        Examples:
          vital donor questionnaire list
          vital donor questionnaire ls --json
        """,
      aliases: ["ls"])
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try DonorContext(global)
      let results = try c.store.questionnaireResults()
      try c.app.output.show(.array(results.map(c.app.json))) {
        guard !results.isEmpty else { return "No questionnaire taken yet; 'vital donor questionnaire' asks it." }
        var table = TextTable(["id", "taken", "result"])
        for r in results {
          table.add([String(r.id.prefix(8)), c.app.human(r.takenAt), Self.verdict(r, c.app.calendar)])
        }
        return table.text
      }
    }

    static func verdict(_ r: Questionnaire.Result, _ calendar: Calendar) -> String {
      if r.eligible { return "eligible" }
      return r.deferredUntil.map { "deferred until \(LocalDate($0, in: calendar))" } ?? "a doctor decides"
    }
  }

  struct ShowResult: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show one questionnaire result with its reasons.",
      discussion: """
        Examples:
          vital donor questionnaire show 3f2a
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The result's id, or its first characters.") var id: String

    func run() async throws {
      let c = try DonorContext(global)
      let r = try c.store.questionnaireResult(id)
      try c.app.output.show(c.app.json(r)) {
        (["\(r.id.prefix(8))  \(c.app.human(r.takenAt))  \(Results.verdict(r, c.app.calendar))"]
          + r.reasons.map { "  - \($0)" }).joined(separator: "\n")
      }
    }
  }

  struct DeleteResult: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete a questionnaire result (answered wrongly, say); booking goes by the one before it.",
      discussion: """
        Examples:
          vital donor questionnaire delete 3f2a --yes
        """,
      aliases: ["rm", "remove"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The result's id, or its first characters.") var id: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try DonorContext(global)
      let r = try c.store.questionnaireResult(id)
      guard try Confirmation.ask("Delete the questionnaire result of \(c.app.human(r.takenAt))?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      try c.store.deleteQuestionnaireResult(r.id)
      try c.app.output.show(c.app.json(r)) { "deleted: questionnaire result of \(c.app.human(r.takenAt))" }
    }
  }
}
