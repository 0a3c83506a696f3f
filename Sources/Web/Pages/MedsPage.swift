import Core
import Foundation
import Records

/// `/meds`: today's doses of each medication with Take and Skip (and Undo once recorded), the
/// last 90 days as a calendar, and each medication's schedule, stock and when it runs out.
struct MedsPage {
  struct Row {
    let medication: Medication
    let today: [Dose]
    let stock: Int?
    let lastsUntil: Date?
  }

  let rows: [Row]
  let chart: String?
  let human: HumanText
  let formToken: String

  var page: Page { Page(title: "Medications", body: body) }

  var body: HTML {
    """
    <p class="lede"><a class="button" href="/meds/new">Add a medication</a></p>
    \(today)\(chartSection)\(list)
    """
  }

  var today: HTML {
    // As needed first, then every dose of the day in the order of its time.
    let items = rows.flatMap { row -> [(Date, HTML)] in
      if row.medication.asNeeded {
        return [
          (
            .distantPast,
            """
            <li data-id="\(row.medication.id)"><span class="time">as needed</span> <span class="name">\(row.medication.name)</span>
            <span class="actions">\(button("/meds/take", ("medication", row.medication.id), "Take now", primary: true, what: row.medication.name))</span></li>

            """
          )
        ]
      }
      return row.today.map { dose in
        let time = TodayPage.clock(dose.scheduledAt, human.calendar)
        let what = "\(row.medication.name) \(time)"
        let state: HTML
        let actions: HTML
        switch dose.status {
        case .pending:
          state = dose.due < human.now ? "<span class=\"badge late\">due</span>" : "<span class=\"badge\">later</span>"
          actions =
            button("/meds/take", ("medication", row.medication.id), "Take", primary: true, what: what, dose: time)
            + button("/meds/skip", ("medication", row.medication.id), "Skip", primary: false, what: what, dose: time)
        case .taken, .skipped:
          let at = dose.at.map { " " + TodayPage.clock($0, human.calendar) } ?? ""
          state = "<span class=\"badge done\">\(dose.status.rawValue)\(at)</span>"
          actions = button(
            "/meds/dose/delete", ("dose", "\(row.medication.id)@\(Self.local(dose.scheduledAt, human.calendar))"),
            "Undo",
            primary: false, what: what)
        case .missed:
          state = "<span class=\"badge late\">missed</span>"
          actions = ""
        }
        return (
          dose.scheduledAt,
          """
          <li data-id="\(row.medication.id)"><span class="time">\(time)</span> <span class="name">\(row.medication.name)</span> \(state)
          <span class="actions">\(actions)</span></li>

          """
        )
      }
    }.sorted { $0.0 < $1.0 }.map(\.1)
    let list: HTML =
      items.isEmpty ? "<p class=\"quiet\">No doses today.</p>" : "<ul class=\"doses\">\n\(items)</ul>"
    return """
      <section aria-labelledby="today"><h2 id="today">Today</h2>\(list)</section>

      """
  }

  /// A button that posts one field and comes back here: `vital meds take ID --dose HH:MM`.
  func button(
    _ action: String, _ field: (String, String), _ label: String, primary: Bool, what: String, dose: String? = nil
  ) -> HTML {
    let slot: HTML =
      dose.map { (time: String) -> HTML in "<input type=\"hidden\" name=\"dose\" value=\"\(time)\">" } ?? ""
    return """
      <form method="post" action="\(action)"><input type="hidden" name="csrf" value="\(formToken)">\
      <input type="hidden" name="\(field.0)" value="\(field.1)">\(slot)<input type="hidden" name="back" value="/meds">\
      <button type="submit"\(primary ? "" : HTML(" class=\"secondary\""))>\(label)<span class="visually-hidden"> \(what)</span></button></form>
      """
  }

  var chartSection: HTML {
    guard let chart else { return "" }
    return """
      <section aria-labelledby="adherence"><h2 id="adherence">Doses taken</h2>\(HTML(trusted: chart))</section>

      """
  }

  var list: HTML {
    guard !rows.isEmpty else {
      return """
        <section aria-labelledby="meds"><h2 id="meds">Medications</h2><p class="quiet">No medications yet.</p></section>

        """
    }
    let items = rows.map { row -> HTML in
      let m = row.medication
      var facts = [m.scheduleText]
      if !m.asNeeded, m.days != nil { facts.append(m.daysText) }
      if let dose = m.dose { facts.append(dose) }
      if let stock = row.stock { facts.append("stock \(stock)") }
      if let last = row.lastsUntil { facts.append("lasts until \(human.time(last))") }
      return """
        <li data-id="\(m.id)"><a href="/meds/\(m.id)" class="name">\(m.name)</a><span class="figures">\(facts.joined(separator: " · "))</span></li>

        """
    }
    return """
      <section aria-labelledby="meds"><h2 id="meds">Medications</h2><ul class="records">
      \(items)</ul></section>

      """
  }

  /// `2026-11-23T08:00`: how `vital meds dose` names a dose's time.
  static func local(_ date: Date, _ calendar: Calendar) -> String { DonationFields.local(date, calendar) }
}
