import Core
import Foundation
import Hummingbird
import Records
import Views

/// `/health` and its forms: moving a source up calls what `vital health sources --prefer`
/// calls, with every source named in its new order (`health sources`); the goal forms call what
/// `vital goals add`, `edit` and `delete` call. Each is one journaled change under that name.
struct HealthRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/health") { request, context in
      let query = request.uri.queryParameters
      return try await page(context, type: query.get("type"), by: query.get("by"))
    }
    router.post("/health/sources") { _, context in
      let up = context.form["up"]
      _ = try await store.write("health sources") { scope in
        let health = HealthStore(scope)
        // No source to move (the reset button): rank by kind of device again.
        guard let up else { return try health.prefer([]) }
        var order = try health.countedSources().map(\.source.name)
        guard let index = order.firstIndex(of: up) else { throw WebError.notFound }
        if index > 0 { order.swapAt(index, index - 1) }
        return try health.prefer(order)
      }
      return Page.seeOther("/health#sources")
    }
    router.post("/health/goals") { _, context in
      let fields = GoalFields(context.form)
      do {
        let kind = try fields.kind()
        let target = try fields.amount(kind)
        let title = fields.title.trimmingCharacters(in: .whitespaces)
        _ = try await store.write("goals add") { scope in
          try GoalStore(scope).add(kind, target: target, title: title.isEmpty ? nil : title)
        }
      } catch {
        guard let refusal = Refusal(error) else { throw error }
        return try await page(context, type: nil, by: nil, goal: fields, errors: refusal.errors)
      }
      return Page.seeOther("/health#goals")
    }
    router.page("/health/goals/:id") { _, context in try await goal(context, id: try context.id()) }
    router.post("/health/goals/:id") { _, context in
      let id = try context.id()
      let fields = GoalFields(context.form)
      do {
        let before = try await store.read { scope in GoalFields(try GoalStore(scope).find(id)) }
        var changes = GoalStore.Changes()
        let kind = try fields.kind()
        if fields.type != before.type { changes.kind = kind }
        if fields.target != before.target || fields.type != before.type { changes.target = try fields.amount(kind) }
        if fields.title != before.title {
          let title = fields.title.trimmingCharacters(in: .whitespaces)
          changes.title = .some(title.isEmpty ? nil : title)
        }
        if fields != before {
          _ = try await store.write("goals edit") { [changes] scope in try GoalStore(scope).edit(id, changes) }
        }
      } catch {
        guard let refusal = Refusal(error) else { throw error }
        return try await goal(context, id: id, fields: fields, errors: refusal.errors)
      }
      return Page.seeOther("/health/goals/\(id)")
    }
    RecordDeletes(
      store: store, path: "/health/goals", noun: "goal", command: "goals delete", back: "/health#goals",
      describe: { scope, id in
        let g = try GoalStore(scope).find(id)
        return (g.id, "the goal \(g.title ?? g.kind.name): \(g.kind.measure.text(g.target)) a day")
      },
      delete: { scope, id in _ = try GoalStore(scope).remove(id) }
    ).add(to: router, current: "/health")
  }

  func page(
    _ context: WebContext, type: String?, by: String?, goal: GoalFields = GoalFields(), errors: [String: String] = [:]
  ) async throws -> Response {
    let token = context.formToken
    let measure = type.flatMap(HealthTotals.Measure.init(rawValue:)) ?? .steps
    let by = ["days", "weeks", "months"].contains(by ?? "") ? by! : "days"
    let period: Trend.Period = by == "weeks" ? .weeks(12) : by == "months" ? .months(12) : .days(14)
    var page = try await store.read { scope in
      let today = LocalDate(scope.now, in: scope.calendar)
      let goals = GoalStore(scope)
      let trend = try goals.trend(measure, period, today: today, goal: nil)
      return HealthPage(
        measure: measure, by: by, trend: trend, chart: ReportChart.trend(trend),
        sources: try HealthStore(scope).countedSources(),
        goals: try goals.list(), goalFields: goal, errors: errors,
        human: HumanText(now: scope.now, calendar: scope.calendar), formToken: token
      ).page
    }
    if !errors.isEmpty { page.refused(errors) }
    return page.response(current: "/health")
  }

  func goal(_ context: WebContext, id: String, fields: GoalFields? = nil, errors: [String: String] = [:]) async throws
    -> Response
  {
    let token = context.formToken
    var page = try await store.read { scope in
      let g = try GoalStore(scope).find(id)
      var sheet = RecordSheet()
      sheet.add("id", g.id)
      sheet.add("type", g.kind.name)
      sheet.add("target", g.kind.measure.text(g.target) + " a day")
      sheet.add("title", g.title)
      sheet.add("description", g.description)
      return RecordPages(formToken: token).show(
        title: g.title ?? "Goal", id: g.id, noun: "goal", path: "/health/goals/\(g.id)", sheet: sheet,
        fields: (fields ?? GoalFields(g)).html("edit", errors: errors))
    }
    if !errors.isEmpty { page.refused(errors) }
    return page.response(current: "/health")
  }
}
