import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Views

extension Vital {
  struct Donor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "donor",
      abstract: "Blood donation: questionnaire, eligibility, appointments, history.",
      subcommands: [
        Add.self, History.self, Show.self, Edit.self, Delete.self, Book.self, Reschedule.self, Cancel.self,
        Complete.self, Status.self, EligibilityCommand.self, Questions.self, QuestionnaireCommand.self,
        VitalsCommand.self, GuideCommand.self, Export.self, Import.self,
      ],
      aliases: ["donation", "donations", "donate", "blood"]
    )
  }
}

extension Vital.Donor {
  struct Questions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "questions", abstract: "List the eligibility questions.",
      discussion: """
        Examples:
          vital donor questions
          vital donor questions --lang ru --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "en or ru.") var lang: Questionnaire.Language = .en

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let questions = Questionnaire.applicable(sex: profile.sex)
      let json = JSON.array(
        questions.map { q in
          .object([
            ("id", .string(q.id)), ("section", .string(q.section)), ("text", .string(q.text(language: lang))),
            ("deferral", .string(describe(q.deferral, region: profile.region))),
          ])
        })
      try c.app.output.show(json) {
        questions.map { "\($0.id.padding(toLength: 22, withPad: " ", startingAt: 0)) \($0.text(language: lang))" }
          .joined(separator: "\n")
      }
    }

    func describe(_ d: Questionnaire.Deferral, region: Region) -> String {
      switch d {
      case .permanent: return "permanent"
      case .days(let n): return "\(n) days"
      case .byRegion(let table): return table[region].map { "\($0) days" } ?? "permanent"
      }
    }
  }

  struct QuestionnaireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "questionnaire",
      abstract: "Answer the eligibility questionnaire (the default), or list, show or delete stored results.",
      subcommands: [Take.self, Results.self, ShowResult.self, DeleteResult.self],
      defaultSubcommand: Take.self)
  }

  struct Take: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "take",
      abstract: "Answer the eligibility questionnaire; the result is stored and valid for 30 days for booking.",
      discussion: """
        Examples:
          vital donor questionnaire
          vital donor questionnaire --answers answers.json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "A JSON object {\"<question id>\": true|false} answering every question, or - for stdin.")
    var answers: String?
    @Option(help: "en or ru.") var lang: Questionnaire.Language = .en

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let given = try answers.map(readAnswers) ?? askOnTerminal(Questionnaire.applicable(sex: profile.sex))
      let result = try Questionnaire.evaluate(
        given, sex: profile.sex, region: profile.region, now: c.app.now, calendar: c.app.calendar)
      try c.store.save(result)
      try c.app.output.show(c.app.json(result)) {
        if result.eligible { return "eligible: nothing in your answers defers you (valid for booking for 30 days)" }
        let until = result.deferredUntil.map { "deferred until \(LocalDate($0, in: c.app.calendar))" } ?? "not eligible"
        return ([until] + result.reasons.map { "  - \($0)" }).joined(separator: "\n")
      }
    }

    func readAnswers(_ source: String) throws -> [String: Bool] {
      let data = try InputFile.read(source, limit: 1 << 20)
      guard let answers = try? JSONDecoder().decode([String: Bool].self, from: data) else {
        throw CLIError.needsInput(
          "the answers must be a JSON object of true or false, like {\"vaccination\": false, ...}; see 'vital donor questions'"
        )
      }
      return answers
    }

    func askOnTerminal(_ questions: [Questionnaire.Question]) throws -> [String: Bool] {
      guard isatty(STDIN_FILENO) == 1 else {
        throw CLIError.needsInput("no terminal to ask on; pass --answers FILE (or - for stdin) with a JSON object")
      }
      var answers: [String: Bool] = [:]
      var section = ""
      for q in questions {
        if q.section != section {
          section = q.section
          print("\n\(section)")
        }
        while answers[q.id] == nil {
          print("  \(q.text(language: lang)) [y/n] ", terminator: "")
          guard let line = readLine()?.lowercased().trimmingCharacters(in: .whitespaces) else {
            throw CLIError.needsInput("the questionnaire was not finished; nothing was saved")
          }
          if ["y", "yes", "д", "да"].contains(line) { answers[q.id] = true }
          if ["n", "no", "н", "нет"].contains(line) { answers[q.id] = false }
        }
      }
      return answers
    }
  }

  struct EligibilityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "eligibility", abstract: "Whether you may donate now, from when, and why.",
      discussion: """
        Examples:
          vital donor eligibility
          vital donor eligibility --kind plasma --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "whole-blood, plasma, platelets or double-red.") var kind: DonationKind = .wholeBlood

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let (recent, ever) = try c.store.recentHistory()
      let verdict = Eligibility.evaluate(
        history: recent, everDonated: ever, profile: profile, kind: kind,
        questionnaire: try c.store.latestQuestionnaire(), now: c.app.now, calendar: c.app.calendar
      ).afterPeriods(starting: try c.periodStarts, today: c.app.today)
      try c.app.output.show(c.app.json(verdict)) {
        let human = HumanText(now: c.app.now, calendar: c.app.calendar)
        let words = verdict.explained(kind: kind, human)
        let lines = [words.headline, words.fix.map { "  " + $0 }, words.byDonations].compactMap { $0 }
        return (lines + words.reasons.map { "  - \($0)" }).joined(separator: "\n")
      }
    }
  }
}
