import Records

/// What every record's pages share: the record as stored beside the form that corrects it, and
/// the question before a delete.
struct RecordPages {
  let formToken: String

  var csrf: HTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(formToken)\">" }

  /// `sheet` as a details list, the form of `fields` posting to `path`, and a link to delete.
  func show(
    title: String, id: String, noun: String, path: String, sheet: RecordSheet, fields: HTML
  ) -> Page {
    let rows = sheet.rows.map { (row: RecordSheet.Row) -> HTML in "<dt>\(row.label)</dt><dd>\(row.value)</dd>" }
    return Page(
      title: title,
      body: """
        <section aria-labelledby="stored" data-id="\(id)"><h2 id="stored">As stored</h2><dl>\(rows)</dl></section>
        <section aria-labelledby="edit"><h2 id="edit">Correct it</h2>
        <form method="post" action="\(path)">\(csrf)
        \(fields)<button type="submit">Save changes</button></form></section>
        <section aria-labelledby="delete"><h2 id="delete">Delete it</h2>
        <p><a class="button secondary" href="\(path)/delete">Delete this \(noun)…</a></p></section>

        """)
  }

  /// Asks before deleting the record at `path`; the button is the only way to send the delete.
  func confirmDelete(noun: String, id: String, path: String, line: String, undo: String) -> Page {
    Page(
      title: "Delete \(noun)?",
      body: """
        <section aria-labelledby="sure" data-id="\(id)"><h2 id="sure">Delete \(line)?</h2>
        <p>\(undo)</p>
        <form method="post" action="\(path)/delete" class="row">\(csrf)<button type="submit" class="danger">Delete</button>
        <a class="button secondary" href="\(path)">Keep it</a></form></section>

        """)
  }

  /// A form to make a new record, in its own section.
  func form(_ heading: String, id: String, action: String, fields: HTML, button: String, note: HTML = "") -> HTML {
    """
    <section aria-labelledby="\(id)"><h2 id="\(id)">\(heading)</h2>\(note)
    <form method="post" action="\(action)">\(csrf)
    \(fields)<button type="submit">\(button)</button></form></section>

    """
  }
}
