import Core
import Foundation
import Records

/// `/donations/new`, `/donations/ID` and its delete confirmation: the forms over one donation.
/// A refused form comes back with what was typed and the reason next to its field.
struct DonationPage {
  let formToken: String

  var pages: RecordPages { RecordPages(formToken: formToken) }

  /// Two forms: a donation made (with what was measured) and an appointment to book.
  func new(add: DonationFields, book: DonationFields, errors: [String: String], failed: String?) -> Page {
    let addErrors = failed == "add" ? errors : [:]
    let bookErrors = failed == "book" ? errors : [:]
    return Page(
      title: "New donation",
      body: pages.form(
        "A donation you made", id: "add", action: "/donations",
        fields: add.html("add", errors: addErrors, measured: true, force: true), button: "Add donation")
        + pages.form(
          "Book an appointment", id: "book", action: "/donations/book",
          fields: book.html("book", errors: bookErrors, measured: false, force: false), button: "Book",
          note:
            "<p class=\"quiet\">Checked as 'vital donor book' checks it: the intervals since your donations, and <a href=\"/donations/questionnaire\">the eligibility questionnaire</a> answered in the last 30 days.</p>"
        ))
  }

  /// One donation: what is stored, a form to correct it, and the way to delete it.
  func show(_ d: Donation, sheet: RecordSheet, fields: DonationFields, errors: [String: String]) -> Page {
    let measured = d.status == .completed
    return pages.show(
      title: "Donation \(HumanText.shortID(d.id))", id: d.id, noun: "donation", path: "/donations/\(d.id)",
      sheet: sheet, fields: fields.html("edit", errors: errors, measured: measured, force: measured))
  }
}
