import Foundation
import Hummingbird

/// `/export`: the downloads `vital export` and `vital report` write, made by those commands run
/// beside the server on the same home and streamed as they come (docs/web.md).
struct ExportRoutes {
  let store: WebStore

  static let csvKinds = ["donations", "doses", "periods", "notes", "samples", "daily-totals", "goals"]

  func add(to router: Router<WebContext>) {
    router.page("/export") { _, _ in ExportPage().page.response(current: "/export") }
    router.page("/export/vital-export.json") { _, _ in
      try await SiblingCommand(home: store.homePath, arguments: ["export", "--format", "json"]).download(
        "vital-export.json", contentType: "application/json")
    }
    router.page("/export/vital-fhir.json") { _, _ in
      try await SiblingCommand(home: store.homePath, arguments: ["export", "--format", "fhir"]).download(
        "vital-fhir.json", contentType: "application/fhir+json")
    }
    router.page("/export/report.html") { _, _ in
      try await SiblingCommand(home: store.homePath, arguments: ["report"]).download(
        "vital-report.html", contentType: "text/html; charset=utf-8")
    }
    router.page("/export/csv/:kind") { _, context in
      guard let kind = context.parameters.get("kind"), Self.csvKinds.contains(kind) else { throw WebError.notFound }
      return try await SiblingCommand(home: store.homePath, arguments: ["export", "--format", "csv", "--kind", kind])
        .download("vital-\(kind).csv", contentType: "text/csv; charset=utf-8")
    }
  }
}

struct ExportPage {
  var page: Page {
    let csv = ExportRoutes.csvKinds.map { kind -> HTML in
      "<li><a href=\"/export/csv/\(kind)\" download>\(kind).csv</a></li>"
    }
    return Page(
      title: "Export",
      body: """
        <p class="lede">Each download is what the command in a terminal writes, made by that command.</p>
        <section aria-labelledby="whole"><h2 id="whole">Your whole record</h2><ul class="records">
        <li><a href="/export/vital-export.json" download>vital-export.json</a><span class="figures">every record, in Vital's own format: 'vital import' reads it back (vital export --format json)</span></li>
        <li><a href="/export/vital-fhir.json" download>vital-fhir.json</a><span class="figures">a FHIR R4 bundle for other health programs (vital export --format fhir)</span></li>
        </ul></section>
        <section aria-labelledby="report"><h2 id="report">For a doctor</h2><ul class="records">
        <li><a href="/export/report.html" download>vital-report.html</a><span class="figures">the last year on one page, to print or send (vital report)</span></li>
        </ul></section>
        <section aria-labelledby="csv"><h2 id="csv">As CSV</h2><p class="quiet">One kind of record a file, for a spreadsheet (vital export --format csv --kind KIND).</p>
        <ul class="records">\(csv)</ul></section>

        """)
  }
}
