import Core
import Foundation
import Hummingbird
import Records
import Views

/// `/meds` and its forms: each calls what `vital meds add`, `edit`, `delete` and
/// `meds dose delete` call, as one journaled change under that command's name; a refusal comes
/// back as the form with the store's words next to the field (422), nothing written.
struct MedsRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/meds") { _, context in try await list(context) }
    router.page("/meds/new") { _, context in new(context, MedsFields(), errors: [:]) }
    router.post("/meds") { _, context in
      let fields = MedsFields(context.form)
      do {
        let changes = try fields.changes()
        _ = try await store.write("meds add") { scope in try MedicationStore(scope).add(name: fields.name, changes) }
      } catch {
        guard let refusal = Refusal(error) else { throw error }
        var page = new(context, fields, errors: refusal.errors)
        page.status = .unprocessableContent
        return page
      }
      return Page.seeOther("/meds")
    }
    router.post("/meds/dose/delete") { _, context in
      guard let key = context.form["dose"], !key.isEmpty else { throw WebError.notFound }
      _ = try await store.write("meds dose delete") { scope in try MedicationStore(scope).deleteDose(key) }
      return Page.seeOther("/meds")
    }
    router.page("/meds/:id") { _, context in try await show(context, id: try context.id()) }
    router.post("/meds/:id") { _, context in try await edit(context, id: try context.id()) }
    RecordDeletes(
      store: store, path: "/meds", noun: "medication", command: "meds delete", back: "/meds",
      undo: "Its dose history stays. 'Undo' brings it back, here or with 'vital undo' in a terminal.",
      describe: { scope, id in
        let m = try MedicationStore(scope).find(id)
        return (m.id, "\(m.name) and its schedule")
      },
      delete: { scope, id in _ = try MedicationStore(scope).remove(id) }
    ).add(to: router, current: "/meds")
  }

  /// `alert`: a refused Take or Skip of this page, said above it (422).
  func list(_ context: WebContext, alert: String? = nil) async throws -> Response {
    let token = context.formToken
    var page = try await store.read { scope in
      let meds = MedicationStore(scope)
      let today = LocalDate(scope.now, in: scope.calendar)
      let (start, end) = (
        today.start(in: scope.calendar), today.adding(days: 1, in: scope.calendar).start(in: scope.calendar)
      )
      let rows = try meds.list().map { m in
        MedsPage.Row(
          medication: m, today: try meds.doses(m, from: start, to: end), stock: try meds.currentStock(m),
          lastsUntil: try meds.stockLastsUntil(m))
      }
      var data = ReportData(from: today, to: today, today: today, calendar: scope.calendar)
      data.adherence = try meds.adherence(from: today.adding(days: -89, in: scope.calendar), through: today)
      return MedsPage(
        rows: rows, chart: ReportChart.adherence(data), human: HumanText(now: scope.now, calendar: scope.calendar),
        formToken: token
      ).page
    }
    page.refused(alert: alert)
    return page.response(current: "/meds")
  }

  func new(_ context: WebContext, _ fields: MedsFields, errors: [String: String]) -> Response {
    var page = Page(
      title: "New medication",
      body: RecordPages(formToken: context.formToken).form(
        "A medication", id: "add", action: "/meds", fields: fields.html("add", errors: errors),
        button: "Add medication",
        note:
          "<p class=\"quiet\">On a schedule (times), as a taper (steps), or taken as needed, as 'vital meds add' takes them.</p>"
      ))
    if !errors.isEmpty { page.refused(errors) }
    return page.response(current: "/meds")
  }

  func show(_ context: WebContext, id: String, fields: MedsFields? = nil, errors: [String: String] = [:]) async throws
    -> Response
  {
    let token = context.formToken
    var page = try await store.read { scope in
      let meds = MedicationStore(scope)
      let m = try meds.find(id)
      let sheet = try meds.sheet(m, HumanText(now: scope.now, calendar: scope.calendar))
      let stock = try meds.currentStock(m)
      let shown = fields ?? MedsFields(m, stock: stock)
      return RecordPages(formToken: token).show(
        title: m.name, id: m.id, noun: "medication", path: "/meds/\(m.id)", sheet: sheet,
        fields: shown.html("edit", errors: errors))
    }
    if !errors.isEmpty { page.refused(errors) }
    return page.response(current: "/meds")
  }

  /// Changes what the form changed: a field sent as it was shown is left alone.
  func edit(_ context: WebContext, id: String) async throws -> Response {
    let fields = MedsFields(context.form)
    do {
      let before = try await store.read { scope in
        let meds = MedicationStore(scope)
        let m = try meds.find(id)
        return MedsFields(m, stock: try meds.currentStock(m))
      }
      let changes = try fields.changes(from: before)
      if fields != before {
        _ = try await store.write("meds edit") { scope in try MedicationStore(scope).edit(id, changes) }
      }
    } catch {
      guard let refusal = Refusal(error) else { throw error }
      return try await show(context, id: id, fields: fields, errors: refusal.errors)
    }
    return Page.seeOther("/meds/\(id)")
  }
}
