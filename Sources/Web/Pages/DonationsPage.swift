import Core
import Foundation
import Records
import Views

/// `/donations`: whether you may donate and why, haemoglobin over the donations, and every
/// donation and appointment newest first with what was measured.
struct DonationsPage {
  let history: [Donation]
  let explanation: Eligibility.Explanation
  let chart: String?
  let human: HumanText

  var page: Page { Page(title: "Donations", body: body) }

  var body: HTML {
    """
    <p class="lede"><a class="button" href="/donations/new">Add or book a donation</a></p>
    \(eligibility)\(chartSection)\(list)
    """
  }

  var eligibility: HTML {
    let fix: HTML = explanation.fix.map { (text: String) -> HTML in "<p>\(text)</p>" } ?? ""
    let alone: HTML = explanation.byDonations.map { (text: String) -> HTML in "<p>\(text)</p>" } ?? ""
    let reasons: HTML =
      explanation.reasons.isEmpty
      ? "" : "<ul class=\"reasons\">\(explanation.reasons.map { (r: String) -> HTML in "<li>\(r)</li>" })</ul>"
    return """
      <section aria-labelledby="may"><h2 id="may">May you donate?</h2><p class="verdict">\(explanation.headline)</p>\(fix)\(alone)\(reasons)</section>

      """
  }

  var chartSection: HTML {
    guard let chart else { return "" }
    return """
      <section aria-labelledby="hb"><h2 id="hb">Haemoglobin</h2>\(HTML(trusted: chart))</section>

      """
  }

  var list: HTML {
    guard !history.isEmpty else {
      return """
        <section aria-labelledby="history"><h2 id="history">History</h2><p class="quiet">No donations yet.</p></section>

        """
    }
    let items = history.map { d -> HTML in
      let when = d.date.map(human.time) ?? "-"
      let figures = Self.figures(d.vitals)
      let measured: HTML = figures.isEmpty ? "" : "<span class=\"figures\">\(figures)</span>"
      return """
        <li data-id="\(d.id)"><a href="/donations/\(d.id)"><span class="when">\(when)</span></a> \
        <span class="badge\(d.status == .completed ? "" : HTML(" \(d.status.rawValue)"))">\(d.status.rawValue)</span> \
        <span class="kind">\(d.kind.label)</span> <span class="place">\(d.place)</span>\(measured)</li>

        """
    }
    return """
      <section aria-labelledby="history"><h2 id="history">History</h2><ul class="records">
      \(items)</ul></section>

      """
  }

  /// `Hb 14.2 g/dL · ferritin 38 ng/mL · BP 120/80 · pulse 66`.
  static func figures(_ v: DonationVitals) -> String {
    var parts: [String] = []
    if let hb = v.haemoglobin { parts.append("Hb \(DonationFields.number(hb)) g/dL") }
    if let ferritin = v.ferritin { parts.append("ferritin \(DonationFields.number(ferritin)) ng/mL") }
    if let s = v.systolic, let d = v.diastolic { parts.append("BP \(s)/\(d) mmHg") }
    if let pulse = v.pulse { parts.append("pulse \(pulse)/min") }
    return parts.joined(separator: " · ")
  }
}
