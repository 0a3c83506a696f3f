import Core
import Foundation
import Records

/// `/health`: a measure's totals per day, week or month against its goal (the trend `vital
/// health trend` prints, drawn), the sources in the order their counts win with buttons that
/// move one up, and the goals with a form to add one.
struct HealthPage {
  let measure: HealthTotals.Measure
  let by: String
  let trend: Trend
  let chart: String?
  let sources: [HealthStore.CountedSource]
  let goals: [Goal]
  let goalFields: GoalFields
  let errors: [String: String]
  let human: HumanText
  let formToken: String

  var page: Page { Page(title: "Health", body: body) }

  var body: HTML { "\(trendSection)\(sourcesSection)\(goalsSection)" }

  var csrf: HTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(formToken)\">" }

  func link(_ measure: HealthTotals.Measure, _ by: String, _ text: String, current: Bool) -> HTML {
    let attribute: HTML = current ? " aria-current=\"page\"" : ""
    return "<a href=\"/health?type=\(measure.rawValue)&amp;by=\(by)\"\(attribute)>\(text)</a>"
  }

  var trendSection: HTML {
    let measures = HealthTotals.Measure.allCases.map { link($0, by, $0.rawValue, current: $0 == measure) }
    let periods = [("days", "14 days"), ("weeks", "12 weeks"), ("months", "12 months")].map {
      link(measure, $0.0, $0.1, current: $0.0 == by)
    }
    let rows = trend.rows.map { row -> HTML in
      let met = row.met == true ? "met" : row.met == false ? "not met" : "-"
      return """
        <tr><th scope="row">\(row.label)</th><td>\(row.total.map(measure.text) ?? "no data")</td>\
        <td>\(row.goal.map(measure.text) ?? "-")</td><td>\(met)</td></tr>

        """
    }
    let drawn: HTML =
      chart.map { HTML(trusted: $0) }
      ?? "<p class=\"quiet\">\(trend.lastData.map { "No data in these days; last data \(human.day($0))." } ?? "No data yet: import an export with 'vital health import FILE'.")</p>"
    return """
      <section aria-labelledby="trend"><h2 id="trend">\(measure.rawValue.capitalized)</h2>
      <p class="row switch">\(measures)</p><p class="row switch">\(periods)</p>
      \(drawn)
      <details><summary>The figures as a table</summary><table class="figures-table"><thead><tr><th scope="col">period</th>\
      <th scope="col">total</th><th scope="col">goal</th><th scope="col">goal met</th></tr></thead><tbody>
      \(rows)</tbody></table></details></section>

      """
  }

  var sourcesSection: HTML {
    guard !sources.isEmpty else { return "" }
    let items = sources.map { s -> HTML in
      let day = { (date: LocalDate?) in date.map(human.day) ?? "-" }
      let up: HTML =
        s.rank == 1
        ? ""
        : """
        <form method="post" action="/health/sources">\(csrf)<input type="hidden" name="up" value="\(s.source.name)">\
        <button type="submit" class="secondary">Move up<span class="visually-hidden"> \(s.source.name)</span></button></form>
        """
      return """
        <li data-id="\(s.source.id)"><span class="number">\(s.rank)</span> <span class="name">\(s.source.name)</span>\
        <span class="figures">\(s.source.kind.rawValue) · counted on \(HumanText.count(s.days, "day")) · \(day(s.first)) to \(day(s.last))\
        \(s.source.preferred != nil ? " · preferred" : "")</span><span class="actions">\(up)</span></li>

        """
    }
    return """
      <section aria-labelledby="sources"><h2 id="sources">Sources</h2>
      <p class="quiet">Where two sources measured the same minutes, the one higher up counts.</p>
      <ol class="records sources">
      \(items)</ol>
      <form method="post" action="/health/sources">\(csrf)<input type="hidden" name="reset" value="1">\
      <button type="submit" class="secondary">Rank by kind of device again</button></form></section>

      """
  }

  var goalsSection: HTML {
    let items = goals.map { g -> HTML in
      """
      <li data-id="\(g.id)"><a href="/health/goals/\(g.id)" class="name">\(g.title ?? g.kind.name.capitalized)</a>\
      <span class="figures">\(g.kind.name), \(g.kind.measure.text(g.target)) a day</span></li>

      """
    }
    let list: HTML = goals.isEmpty ? "<p class=\"quiet\">No goals yet.</p>" : "<ul class=\"records\">\n\(items)</ul>"
    return """
      <section aria-labelledby="goals"><h2 id="goals">Goals</h2>\(list)
      <h3>Add a goal</h3>
      <form method="post" action="/health/goals">\(csrf)
      \(goalFields.html("goal", errors: errors))<button type="submit">Add goal</button></form></section>

      """
  }
}

/// A goal's fields, named as `vital goals add` names its options.
struct GoalFields: Equatable {
  var type = Goal.Kind.steps.name
  var target = ""
  var title = ""

  init() {}

  init(_ form: Form) {
    type = form["type"] ?? ""
    target = form["target"] ?? ""
    title = form["title"] ?? ""
  }

  init(_ goal: Goal) {
    type = goal.kind.name
    target = goal.kind.measure.text(goal.target)
    title = goal.title ?? ""
  }

  func kind() throws -> Goal.Kind {
    guard let kind = Goal.Kind(name: type) else {
      throw Refusal(field: "type", "Choose steps, distance or running distance.")
    }
    return kind
  }

  func amount(_ kind: Goal.Kind) throws -> Double {
    do {
      return try kind.measure.value(target)
    } catch let error as HealthTotals.Measure.ValueError {
      throw Refusal(field: "target", error.description)
    }
  }

  func html(_ prefix: String, errors: [String: String]) -> HTML {
    let fields = [
      Field(
        name: "type", label: "Type", value: type, type: "select",
        choices: Goal.Kind.allCases.map { ($0.name, $0.name.replacingOccurrences(of: "-", with: " ")) }),
      Field(
        name: "target", label: "Target a day", value: target, hint: "steps, or a distance: 5km, 3 mi", required: true),
      Field(name: "title", label: "Name", value: title),
    ]
    return fields.map { field -> HTML in
      var field = field
      field.id = "\(prefix)-\(field.name)"
      return field.html(error: errors[field.name])
    }.joined()
  }
}
