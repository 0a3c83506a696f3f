import Core
import Foundation
import Hummingbird
import Records
import Views

/// `/cycle` and its note form, which calls what `vital cycle note` calls (one journaled change
/// under that name); a refusal comes back as the form with the reason next to its field (422).
struct CycleRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/cycle") { request, context in
      let query = request.uri.queryParameters
      return try await page(context, month: query.get("month"), day: query.get("day"))
    }
    router.post("/cycle/note") { _, context in
      let fields = CycleFields(context.form)
      guard let day = fields.day else { throw WebError.notFound }
      let month = CyclePage.monthText(day.year, day.month)
      do {
        try await store.write("cycle note") { scope in
          let periods = PeriodStore(scope)
          let before = CycleFields(try periods.note(on: day), date: day)
          let change = try fields.change(from: before)
          if !change.isEmpty { try periods.note(day, change) }
        }
      } catch {
        guard let refusal = Refusal(error) else { throw error }
        return try await page(context, month: month, day: day.description, fields: fields, errors: refusal.errors)
      }
      return Page.seeOther("/cycle?month=\(month)&day=\(day)")
    }
  }

  func page(
    _ context: WebContext, month: String?, day: String?, fields: CycleFields? = nil, errors: [String: String] = [:]
  ) async throws -> Response {
    let token = context.formToken
    var page = try await store.read { scope in
      let periods = PeriodStore(scope)
      let today = LocalDate(scope.now, in: scope.calendar)
      let chosen = day.flatMap { LocalDate($0) } ?? today
      let first = month.flatMap { LocalDate($0 + "-01") } ?? LocalDate(year: chosen.year, month: chosen.month, day: 1)!
      var data = ReportData(from: today.adding(days: -365), to: today, today: today, calendar: scope.calendar)
      try data.loadCycle(periods)
      let all = try periods.list()
      let note = try periods.note(on: chosen)
      let backtest = all.count < 4 ? nil : try CycleBacktest.run(periods: all, pauses: try periods.pauses())
      return CyclePage(
        year: first.year, month: first.month, days: try periods.calendar(year: first.year, month: first.month),
        today: today, chosen: chosen, fields: fields ?? CycleFields(note, date: chosen),
        errors: errors, temperatures: ReportChart.temperatures(data), cycles: ReportChart.cycles(data),
        backtest: backtest,
        formToken: token
      ).page
    }
    if !errors.isEmpty { page.refused(errors) }
    return page.response(current: "/cycle")
  }
}
