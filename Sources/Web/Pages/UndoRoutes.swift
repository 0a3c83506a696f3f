import Core
import Foundation
import Hummingbird
import Records
import Replication
import Schema
import Storage
import Views

/// `/undo`: the last changes made on this device, page or terminal alike, each with an Undo
/// button that does what `vital undo N` does (an undo is itself a change, undone the same way).
struct UndoRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/undo") { _, context in try await page(context) }
    router.post("/undo") { _, context in
      guard let number = context.form["number"].flatMap(Int64.init) else {
        return try await page(context, alert: "Which change? The form sent no number: reload the page.")
      }
      do {
        _ = try await store.unjournaled { scope in
          let journal = ChangeJournal(db: scope.db, accountID: scope.account.id)
          guard let change = try journal.change(seq: number) else {
            throw ChangeJournal.UndoError.noSuchChange(number)
          }
          return try journal.undo(change, datasets: VitalSchema.datasets, now: scope.now).undo?.seq
        }
      } catch let error as ChangeJournal.UndoError {
        return try await page(context, alert: error.description)
      }
      return Page.seeOther("/undo")
    }
  }

  func page(_ context: WebContext, alert: String? = nil) async throws -> Response {
    let token = context.formToken
    var page = try await store.read { scope in
      let journal = ChangeJournal(db: scope.db, accountID: scope.account.id)
      let changes = try journal.recent(limit: 20)
      let human = HumanText(now: scope.now, calendar: scope.calendar)
      var labels = RecordLabel(db: scope.db, accountID: scope.account.id, datasets: VitalSchema.datasets, human: human)
      labels.learn(changes)
      let rows = changes.map { change in
        UndoPage.Row(
          number: change.seq, at: change.at, command: change.command, summary: labels.summary(change),
          undone: change.undoneBy != nil)
      }
      return UndoPage(rows: rows, human: human, formToken: token).page
    }
    page.refused(alert: alert)
    return page.response(current: "/undo")
  }
}

/// The journal as a list, newest first.
struct UndoPage {
  struct Row {
    let number: Int64
    let at: Date
    let command: String
    let summary: String
    let undone: Bool
  }

  let rows: [Row]
  let human: HumanText
  let formToken: String

  var page: Page { Page(title: "Undo", body: body) }

  var body: HTML {
    guard !rows.isEmpty else { return "<p class=\"quiet\">No changes yet on this device.</p>\n" }
    let items = rows.map { row -> HTML in
      let action: HTML =
        row.undone
        ? "<span class=\"badge\">undone</span>"
        : """
        <form method="post" action="/undo"><input type="hidden" name="csrf" value="\(formToken)">\
        <input type="hidden" name="number" value="\(Int(row.number))"><button type="submit" class="secondary">Undo\
        <span class="visually-hidden"> change \(Int(row.number))</span></button></form>
        """
      return """
        <li data-id="\(Int(row.number))"><span class="number">#\(Int(row.number))</span> \
        <time datetime="\(ISO8601.string(from: row.at))">\(human.time(row.at))</time> \
        <code>vital \(row.command)</code><span class="summary">\(row.summary)</span>\(action)</li>

        """
    }
    return """
      <p class="lede">The last changes made on this device, here or in a terminal. 'vital undo N' does the same.</p>
      <section aria-labelledby="changes"><h2 id="changes">Changes</h2><ul class="records changes">
      \(items)</ul></section>

      """
  }
}
