import Foundation
import Hummingbird

/// `/sync`: what `vital remote status` says (the server, the login, the last sync, what waits
/// to be sent, records set aside), and **Sync now**, which runs `vital sync` beside the server.
struct SyncRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/sync") { _, context in try await page(context) }
    router.post("/sync") { _, context in
      let run = try await SiblingCommand(home: store.homePath, arguments: ["sync", "--json"]).output()
      guard run.status == 0 else {
        // The command's own error line: what to do next, no value of the record.
        return try await page(context, alert: run.error.replacingOccurrences(of: "error: ", with: ""))
      }
      return Page.seeOther("/sync")
    }
  }

  func page(_ context: WebContext, alert: String? = nil) async throws -> Response {
    let run = try await SiblingCommand(home: store.homePath, arguments: ["remote", "status", "--json"]).output()
    let status = (try? JSONSerialization.jsonObject(with: run.stdout)) as? [String: Any] ?? [:]
    var page = SyncPage(status: status, formToken: context.formToken).page
    page.refused(alert: alert)
    return page.response(current: "/sync")
  }
}

struct SyncPage {
  let status: [String: Any]
  let formToken: String

  var page: Page {
    let url = status["url"] as? String
    let rows: [(String, String)] = [
      ("Server", url ?? "none: 'vital remote set URL' or 'vital remote join URL --email E' sets one"),
      ("Logged in", (status["logged_in"] as? Bool) == true ? "yes" : "no"),
      ("Last sync", status["last_sync"] as? String ?? "never"),
      ("Waiting to be sent", "\(status["pending"] as? Int ?? 0) changes"),
      ("End-to-end encrypted", (status["encrypted"] as? Bool) == true ? "yes" : "no"),
    ]
    let list = rows.map { (row: (String, String)) -> HTML in "<dt>\(row.0)</dt><dd>\(row.1)</dd>" }
    let aside = (status["set_aside"] as? [Any] ?? []).count + (status["refused"] as? [Any] ?? []).count
    let setAside: HTML =
      aside == 0
      ? ""
      : "<p class=\"alert\">\(aside) records were set aside or refused: 'vital remote status' in a terminal lists them.</p>"
    return Page(
      title: "Sync",
      body: """
        <section aria-labelledby="remote"><h2 id="remote">This device and the server</h2><dl>\(list)</dl>\(setAside)</section>
        <section aria-labelledby="now"><h2 id="now">Sync now</h2>
        <p class="quiet">Sends what waits and fetches your other devices' changes, as 'vital sync' does.</p>
        <form method="post" action="/sync"><input type="hidden" name="csrf" value="\(formToken)"><button type="submit">Sync now</button></form></section>

        """)
  }
}
