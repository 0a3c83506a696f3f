import Core
import Foundation
import Hummingbird
import Records

/// `/areas`: the watched places with their district, its incidence and the phase it is in, a
/// form to watch another (`vital area watch add`) and a delete after a confirmation
/// (`vital area watch delete`), each one journaled change under that name.
struct AreasRoutes {
  let store: WebStore

  struct Row {
    let watch: AreaStore.Watch
    let district: String?
    let stat: AreaStore.Stat?
    let phase: Phase?
  }

  func add(to router: Router<WebContext>) {
    router.page("/areas") { _, context in try await page(context) }
    router.post("/areas") { _, context in
      let (label, lat, lon) = (context.form["label"] ?? "", context.form["lat"] ?? "", context.form["lon"] ?? "")
      do {
        func number(_ text: String) -> Double? {
          Double(text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "."))
        }
        guard let latitude = number(lat), (-90...90).contains(latitude) else {
          throw Refusal(field: "lat", "Latitude is a number from -90 to 90, like 52.52.")
        }
        guard let longitude = number(lon), (-180...180).contains(longitude) else {
          throw Refusal(field: "lon", "Longitude is a number from -180 to 180, like 13.405.")
        }
        _ = try await store.write("area watch add") { scope in
          try AreaStore(scope).addWatch(label: label, point: GeoPoint(lon: longitude, lat: latitude))
        }
      } catch {
        guard let refusal = Refusal(error) else { throw error }
        return try await page(context, fields: (label, lat, lon), errors: refusal.errors)
      }
      return Page.seeOther("/areas")
    }
    router.page("/areas/:id") { _, _ in Page.seeOther("/areas") }
    RecordDeletes(
      store: store, path: "/areas", noun: "watched place", command: "area watch delete", back: "/areas",
      describe: { scope, id in
        let watch = try AreaStore(scope).findWatch(id)
        return (watch.id, "the watched place \(watch.label)")
      },
      delete: { scope, id in _ = try AreaStore(scope).removeWatch(id) }
    ).add(to: router, current: "/areas")
  }

  func page(
    _ context: WebContext, fields: (String, String, String) = ("", "", ""), errors: [String: String] = [:]
  ) async throws -> Response {
    let token = context.formToken
    var page = try await store.read { scope in
      let areas = AreaStore(scope)
      let loaded = try areas.areaCount() > 0
      let rows = try areas.watches().map { w in
        // Without districts no place has one, nor a phase.
        let area = loaded ? try areas.locate(w.point) : nil
        return Row(
          watch: w, district: area?.name, stat: try area.flatMap { try areas.stat($0.id) },
          phase: try areas.phase(at: w.point))
      }
      return AreasPage(
        rows: rows, districts: loaded ? 1 : 0, today: LocalDate(scope.now, in: scope.calendar), fields: fields,
        errors: errors, formToken: token
      ).page
    }
    if !errors.isEmpty { page.refused(errors) }
    return page.response(current: "/areas")
  }
}

struct AreasPage {
  let rows: [AreasRoutes.Row]
  /// How many districts are loaded (0: no phase can be told).
  let districts: Int
  let today: LocalDate
  let fields: (label: String, lat: String, lon: String)
  let errors: [String: String]
  let formToken: String

  var page: Page { Page(title: "Areas", body: body) }

  var body: HTML {
    let note: HTML =
      districts == 0
      ? "<p class=\"quiet\">No districts are loaded, so no phase can be told: 'vital area import FILE' loads them.</p>"
      : ""
    let items = rows.map { row -> HTML in
      let incidence = row.stat?.incidence.map { String(format: "%.1f", $0) }
      let facts = [
        row.district, incidence.map { "incidence \($0)" },
        row.stat?.asOf.map { day in
          // A phase from figures weeks old is no guide for today: said so, as the CLI says it.
          let old = LocalDate(String(day.prefix(10))).map { $0.days(to: today) > AreaStore.staleAfterDays } ?? false
          return "as of \(day)" + (old ? " (old figures)" : "")
        },
        String(format: "%.4f, %.4f", row.watch.point.lat, row.watch.point.lon),
      ].compactMap { $0 }.joined(separator: " · ")
      let phase = row.phase?.rawValue ?? "unknown"
      return """
        <li data-id="\(row.watch.id)"><span class="name">\(row.watch.label)</span> <span class="badge phase-\(phase)">\(phase)</span>\
        <span class="figures">\(facts)</span><span class="actions"><a class="button secondary" href="/areas/\(row.watch.id)/delete">Delete<span class="visually-hidden"> \(row.watch.label)</span></a></span></li>

        """
    }
    let list: HTML =
      rows.isEmpty ? "<p class=\"quiet\">No watched places yet.</p>" : "<ul class=\"records\">\n\(items)</ul>"
    let form = [
      Field(name: "label", label: "Name", value: fields.label, hint: "e.g. Home", required: true),
      Field(
        name: "lat", label: "Latitude", value: fields.lat, hint: "e.g. 52.52", required: true, inputMode: "decimal"),
      Field(
        name: "lon", label: "Longitude", value: fields.lon, hint: "e.g. 13.405", required: true, inputMode: "decimal"),
    ].map { field -> HTML in
      var field = field
      field.id = "watch-\(field.name)"
      return field.html(error: errors[field.name])
    }
    return """
      \(note)<section aria-labelledby="watched"><h2 id="watched">Watched places</h2>\(list)</section>
      <section aria-labelledby="add"><h2 id="add">Watch a place</h2>
      <form method="post" action="/areas"><input type="hidden" name="csrf" value="\(formToken)">
      \(form)<button type="submit">Watch</button></form></section>

      """
  }
}
