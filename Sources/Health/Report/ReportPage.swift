import Core
import Foundation
import Storage

/// `vital report` as one self-contained HTML page: no script, no network, inline SVG charts and
/// styles, laid out for A4 when printed (each section kept on one page where it fits).
public enum ReportPage {
  public static func html(_ data: ReportData, generated: String) -> String {
    let p = data.profile
    let who = [p.name, p.surname].compactMap { $0 }.joined(separator: " ")
    var sections: [String] = []
    let weight: String = p.weightKg.map { number($0) + " kg" } ?? "–"
    sections.append(
      section(
        "profile", "Profile",
        table(
          ["", ""],
          [
            ["Name", who.isEmpty ? "–" : who], ["Sex", p.sex?.rawValue ?? "–"], ["Born", p.birthDate ?? "–"],
            ["Blood type", p.bloodType?.description ?? "–"], ["Weight", weight],
            ["Region", p.regionChosen ? p.region.rawValue : "–"],
          ], header: false)))

    var donations =
      ReportCharts.donations(data).map(\.svg) ?? empty("No donations between \(data.from) and \(data.to).")
    donations += "<p>Next eligible to donate: <strong>\(data.nextEligible.map(\.description) ?? "now")</strong></p>"
    if !data.donations.isEmpty {
      donations += table(
        ["Date", "Kind", "Place", "Hb g/dL"],
        data.donations.map { d in
          [
            d.completedAt.map { LocalDate($0, in: data.calendar).description } ?? "", d.kind.label, d.place,
            d.vitals.haemoglobin.map { String(format: "%.1f", $0) } ?? "–",
          ]
        })
    }
    sections.append(section("donations", "Blood donations", donations))

    var cycle =
      ReportCharts.cycles(data).map(\.svg)
      ?? empty("Fewer than two periods between \(data.from) and \(data.to): no cycle length to show.")
    if let next = data.nextPeriod {
      cycle += "<p>Next period predicted for <strong>\(next)</strong> (a prediction, not contraception).</p>"
    }
    sections.append(section("cycle", "Cycle", cycle))

    var meds =
      data.medications.isEmpty
      ? empty("No medications.")
      : table(
        ["Medication", "Dose", "Schedule", "Since", "Stock"],
        data.medications.map {
          [
            $0.name, $0.dose.isEmpty ? "–" : $0.dose, $0.schedule, $0.since.description,
            $0.stock.map(String.init) ?? "–",
          ]
        })
    meds += ReportCharts.adherence(data).map(\.svg) ?? empty("No doses were due in the 90 days to \(data.to).")
    sections.append(section("medications", "Medications", meds))

    sections.append(
      section(
        "steps", "Steps",
        ReportCharts.steps(data).map(\.svg) ?? empty("No steps recorded between \(data.from) and \(data.to).")))

    sections.append(
      section(
        "places", "Watched places",
        data.places.isEmpty
          ? empty("No watched places.")
          : table(
            ["Place", "Phase now"],
            data.places.map {
              [$0.label, $0.phase.map { "<span class=\"phase \($0.rawValue)\">\($0.label.en)</span>" } ?? "unknown"]
            },
            raw: [1])))

    let named = who.isEmpty ? "" : escaped(who) + " · "
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Health report \(named)\(data.from) to \(data.to)</title>
      <style>\(style)</style>
      </head>
      <body>
      <header><h1>Health report</h1><p>\(named)\(data.from) to \(data.to) · written by Vital on \(escaped(generated))</p></header>
      \(sections.joined(separator: "\n"))
      </body>
      </html>

      """
  }

  static func section(_ id: String, _ title: String, _ body: String) -> String {
    "<section id=\"\(id)\"><h2>\(escaped(title))</h2>\n\(body)\n</section>"
  }

  static func empty(_ text: String) -> String { "<p class=\"empty\">\(escaped(text))</p>" }

  /// A table; cells are text, escaped, except the columns in `raw` (already HTML).
  static func table(_ columns: [String], _ rows: [[String]], header: Bool = true, raw: Set<Int> = []) -> String {
    var out = "<table>"
    if header { out += "<thead><tr>" + columns.map { "<th>\(escaped($0))</th>" }.joined() + "</tr></thead>" }
    out += "<tbody>"
    for row in rows {
      out += "<tr>"
      for (i, cell) in row.enumerated() {
        let tag = !header && i == 0 ? "th" : "td"
        out += "<\(tag)>\(raw.contains(i) ? cell : escaped(cell))</\(tag)>"
      }
      out += "</tr>"
    }
    return out + "</tbody></table>"
  }

  static func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }

  static let style = """
    @page { size: A4; margin: 14mm; }
    * { box-sizing: border-box; }
    html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    body { font: 11pt/1.4 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #1b1b1b; margin: 0 auto; max-width: 182mm; padding: 8mm 0; }
    header h1 { font-size: 20pt; margin: 0; }
    header p { margin: 2pt 0 10pt; color: #555; }
    header, section { display: flow-root; }
    section { break-inside: avoid; page-break-inside: avoid; margin: 0 0 10pt; }
    h2 { font-size: 13pt; border-bottom: 1px solid #bbb; padding-bottom: 2pt; margin: 8pt 0 6pt; }
    table { border-collapse: collapse; width: 100%; margin: 4pt 0; font-size: 10pt; }
    th, td { text-align: left; padding: 2pt 6pt; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
    thead th { border-bottom: 1px solid #999; }
    p.empty { color: #666; font-style: italic; }
    figure.chart { margin: 4pt 0; }
    figcaption { font-size: 9pt; color: #555; }
    svg text { font-family: inherit; font-size: 10px; fill: #333; }
    svg .axis { stroke: #444; stroke-width: 1; }
    svg .grid { stroke: #e2e2e2; stroke-width: 1; }
    svg .axis-label { font-size: 10px; fill: #222; }
    svg .bar { fill: #7d9cc4; }
    svg .bar.met { fill: #3b8f5a; }
    svg .goal, svg .marker { stroke: #b03030; stroke-width: 1.2; stroke-dasharray: 4 3; }
    svg .marker-label { fill: #b03030; }
    svg .trend { fill: none; stroke: #b03030; stroke-width: 1.5; }
    svg .hb { fill: #fff; stroke: #b03030; stroke-width: 1.5; }
    svg .donation { fill: #7a1f1f; }
    svg .level-none { fill: #eeeeee; }
    svg .level-0 { fill: #f2c4c4; }
    svg .level-1 { fill: #d6e8c8; }
    svg .level-2 { fill: #a9d18e; }
    svg .level-3 { fill: #6fae56; }
    svg .level-4 { fill: #2f7d32; }
    .phase { padding: 0 5pt; border-radius: 3pt; color: #fff; }
    .phase.green { background: #2f7d32; } .phase.yellow { background: #c9a400; color: #000; }
    .phase.red { background: #c62828; } .phase.dark-red { background: #6d0f0f; }
    """
}
