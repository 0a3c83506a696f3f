import Core
import Foundation
import Hummingbird
import Records

/// `/donations/questionnaire`: the eligibility questions as a form, each a Yes/No pair, what
/// `vital donor questionnaire` asks in a terminal. Its result is stored as that command stores it
/// (one journaled change) and allows booking for 30 days.
struct QuestionnaireRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/donations/questionnaire") { _, context in try await page(context) }
    router.post("/donations/questionnaire") { _, context in
      let sex = try await store.read { scope in try ProfileStore(scope).load().sex }
      var answers: [String: Bool] = [:]
      for question in Questionnaire.applicable(sex: sex) {
        switch context.form[question.id] {
        case "yes": answers[question.id] = true
        case "no": answers[question.id] = false
        default: continue
        }
      }
      let asked = Questionnaire.applicable(sex: sex).count
      guard answers.count == asked else {
        let left = asked - answers.count
        return try await page(
          context, answers: answers,
          alert: "Nothing was saved: answer every question (\(HumanText.count(left, "question")) left unanswered).")
      }
      try await store.write("donor questionnaire take") { [answers] scope in
        let profile = try ProfileStore(scope).load()
        let result = try Questionnaire.evaluate(
          answers, sex: profile.sex, region: profile.region, now: scope.now, calendar: scope.calendar)
        try DonationStore(scope).save(result)
      }
      return Page.seeOther("/donations/questionnaire#result")
    }
  }

  func page(_ context: WebContext, answers: [String: Bool] = [:], alert: String? = nil) async throws -> Response {
    let token = context.formToken
    var page = try await store.read { scope in
      let profile = try ProfileStore(scope).load()
      return QuestionnairePage(
        questions: Questionnaire.applicable(sex: profile.sex), answers: answers,
        latest: try DonationStore(scope).latestQuestionnaire(),
        human: HumanText(now: scope.now, calendar: scope.calendar), formToken: token
      ).page
    }
    page.refused(alert: alert)
    return page.response(current: "/donations")
  }
}

struct QuestionnairePage {
  let questions: [Questionnaire.Question]
  let answers: [String: Bool]
  let latest: Questionnaire.Result?
  let human: HumanText
  let formToken: String

  var page: Page { Page(title: "Eligibility questionnaire", body: body) }

  var body: HTML {
    let sections = Dictionary(grouping: questions, by: \.section)
    let order = questions.map(\.section).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let groups = order.map { section -> HTML in
      let items = sections[section]!.map { q -> HTML in
        func radio(_ value: String, _ label: String, _ checked: Bool) -> HTML {
          let on: HTML = checked ? " checked" : ""
          return """
            <label class="choice"><input type="radio" name="\(q.id)" value="\(value)"\(on) required> \(label)</label>
            """
        }
        return """
          <fieldset class="question" data-id="\(q.id)"><legend>\(q.text)</legend>\
          \(radio("yes", "Yes", answers[q.id] == true))\(radio("no", "No", answers[q.id] == false))</fieldset>

          """
      }
      return "<section aria-label=\"\(section)\"><h2>\(section)</h2>\n\(items)</section>\n"
    }
    return """
      \(result)<p class="lede">What the blood service asks before a donation. A yes defers you for a while, or means a doctor there decides; the result allows booking for 30 days.</p>
      <form method="post" action="/donations/questionnaire"><input type="hidden" name="csrf" value="\(formToken)">
      \(groups)<p><button type="submit">Save my answers</button></p></form>

      """
  }

  var result: HTML {
    guard let latest else { return "" }
    let verdict: String
    if latest.eligible {
      verdict = "Eligible: nothing in your answers defers you."
    } else if let until = latest.deferredUntil {
      verdict = "Deferred until \(human.day(LocalDate(until, in: human.calendar)))."
    } else {
      verdict = "A doctor at the blood service has to decide."
    }
    let reasons = latest.reasons.map { (reason: String) -> HTML in "<li>\(reason)</li>" }
    let list: HTML = reasons.isEmpty ? "" : "<ul class=\"reasons\">\(reasons)</ul>"
    return """
      <section aria-labelledby="result" id="result-section"><h2 id="result">Your last answers, \(human.time(latest.takenAt))</h2>\
      <p class="verdict">\(verdict)</p>\(list)<p><a href="/donations/new#book">Book an appointment</a></p></section>

      """
  }
}
