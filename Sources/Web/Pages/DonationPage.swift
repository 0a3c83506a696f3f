import Core
import Foundation
import Records

/// `/donations/new`, `/donations/ID` and its delete confirmation: the forms over one donation.
/// A refused form comes back with what was typed and the reason next to its field.
struct DonationPage {
  let formToken: String

  /// Two forms: a donation made (with what was measured) and an appointment to book.
  func new(add: DonationFields, book: DonationFields, errors: [String: String], failed: String?) -> Page {
    let addErrors = failed == "add" ? errors : [:]
    let bookErrors = failed == "book" ? errors : [:]
    return Page(
      title: "New donation",
      body: """
        <section aria-labelledby="add"><h2 id="add">A donation you made</h2>
        <form method="post" action="/donations">\(csrf)
        \(add.html("add", errors: addErrors, measured: true, force: true))<button type="submit">Add donation</button></form></section>
        <section aria-labelledby="book"><h2 id="book">Book an appointment</h2>
        <p class="quiet">Checked as 'vital donor book' checks it: the intervals since your donations, your last questionnaire.</p>
        <form method="post" action="/donations/book">\(csrf)
        \(book.html("book", errors: bookErrors, measured: false, force: false))<button type="submit">Book</button></form></section>

        """)
  }

  /// One donation: what is stored, a form to correct it, and the way to delete it.
  func show(_ d: Donation, sheet: RecordSheet, fields: DonationFields, errors: [String: String]) -> Page {
    let rows = sheet.rows.map { (row: RecordSheet.Row) -> HTML in "<dt>\(row.label)</dt><dd>\(row.value)</dd>" }
    let measured = d.status == .completed
    return Page(
      title: "Donation \(HumanText.shortID(d.id))",
      body: """
        <section aria-labelledby="stored" data-id="\(d.id)"><h2 id="stored">As stored</h2><dl>\(rows)</dl></section>
        <section aria-labelledby="edit"><h2 id="edit">Correct it</h2>
        <form method="post" action="/donations/\(d.id)">\(csrf)
        \(fields.html("edit", errors: errors, measured: measured, force: measured))<button type="submit">Save changes</button></form></section>
        <section aria-labelledby="delete"><h2 id="delete">Delete it</h2>
        <p><a class="button secondary" href="/donations/\(d.id)/delete">Delete this donation…</a></p></section>

        """)
  }

  /// Asks before deleting; the button is the only way to send the delete.
  func confirmDelete(_ d: Donation, line: String) -> Page {
    Page(
      title: "Delete donation?",
      body: """
        <section aria-labelledby="sure" data-id="\(d.id)"><h2 id="sure">Delete \(line)?</h2>
        <p>'Undo' brings it back, here or with 'vital undo' in a terminal.</p>
        <form method="post" action="/donations/\(d.id)/delete" class="row">\(csrf)<button type="submit" class="danger">Delete</button>
        <a class="button secondary" href="/donations/\(d.id)">Keep it</a></form></section>

        """)
  }

  var csrf: HTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(formToken)\">" }
}
