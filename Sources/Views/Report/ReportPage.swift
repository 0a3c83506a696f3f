import Core
import Foundation
import Records
import Storage

/// `vital report` as one self-contained HTML page: no script, no network, inline SVG charts and
/// styles, laid out for A4 when printed (each section kept on one page where it fits), readable
/// on a phone and in a dark theme on screen. Dates are written in words, as a doctor reads them.
public enum ReportPage {
  /// The page for `data`, written at `generated` (said in words in the header).
  public static func html(_ data: ReportData, generated: Date) -> String {
    let p = data.profile
    let who = [p.name, p.surname].compactMap { $0 }.joined(separator: " ")
    let human = HumanText(now: generated, calendar: data.calendar)
    let sections = [
      profile(data), donations(data), cycle(data), medications(data), steps(data), body(data), labs(data),
      places(data),
    ]
    let named = who.isEmpty ? "" : escaped(who) + " · "
    let window = "\(HumanText.date(data.from)) to \(HumanText.date(data.to))"
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>Health report \(named)\(window)</title>
      <style>\(ReportStyle.css)</style>
      </head>
      <body>
      <header><h1>Health report\(who.isEmpty ? "" : " — " + escaped(who))</h1><p>\(window) · written by Vital on \(escaped(human.inWords(generated)))</p></header>
      \(sections.joined(separator: "\n"))
      </body>
      </html>

      """
  }

  static func profile(_ data: ReportData) -> String {
    let p = data.profile
    let who = [p.name, p.surname].compactMap { $0 }.joined(separator: " ")
    let born = p.birthDate.flatMap { LocalDate($0) }.map {
      "\(HumanText.longDate($0)) (\($0.years(to: data.to)) years)"
    }
    let weight: String = p.weightKg.map { number($0) + " kg" } ?? "–"
    return section(
      "profile", "Profile",
      table(
        ["", ""],
        [
          ["Name", who.isEmpty ? "–" : who], ["Sex", p.sex?.rawValue ?? "–"], ["Born", born ?? "–"],
          ["Blood type", p.bloodType?.description ?? "–"], ["Weight", weight],
          ["Donation rules", p.regionChosen ? "\(p.region.name) (\(p.region.rawValue))" : "–"],
        ], header: false))
  }

  static func donations(_ data: ReportData) -> String {
    var body =
      ReportCharts.donations(data).map(\.svg)
      ?? empty("No donations between \(HumanText.date(data.from)) and \(HumanText.date(data.to)).")
    let next =
      data.eligibilityMissing.isEmpty
      ? data.nextEligible.map { $0 <= data.today ? "now" : "from " + HumanText.date($0) } ?? "now"
      : "not known: the profile has no \(data.eligibilityMissing.joined(separator: ", "))"
    body += "<p>May donate again: <strong>\(escaped(next))</strong></p>"
    if !data.donations.isEmpty {
      body += table(
        ["Date", "Kind", "Place", "Hb g/dL"],
        data.donations.reversed().map { d in
          [
            d.completedAt.map { HumanText.date(LocalDate($0, in: data.calendar)) } ?? "", d.kind.label, d.place,
            d.vitals.haemoglobin.map { String(format: "%.1f", $0) } ?? "–",
          ]
        })
    }
    return section("donations", "Blood donations", body)
  }

  static func cycle(_ data: ReportData) -> String {
    var facts: [[String]] = []
    if let last = data.lastPeriod {
      if last.underWay(today: min(data.to, data.today)) {
        facts.append(["Last period", "from \(HumanText.date(last.start)), under way"])
      } else {
        let end = last.end.map { " to " + HumanText.date($0) } ?? ", ongoing"
        facts.append([
          "Last period",
          HumanText.date(last.start) + end + (last.length.map { " (\(HumanText.count($0, "day")))" } ?? ""),
        ])
      }
    }
    if let next = data.nextPeriod {
      facts.append(["Next period predicted", HumanText.date(next) + " (a prediction, not contraception advice)"])
    }
    var body = facts.isEmpty ? "" : table(["", ""], facts, header: false)
    body +=
      ReportCharts.cycles(data).map(\.svg)
      ?? empty(
        "Fewer than two periods between \(HumanText.date(data.from)) and \(HumanText.date(data.to)): no cycle length to show."
      )
    body += ReportCharts.temperatures(data).map(\.svg) ?? ""
    if facts.isEmpty, data.periods.isEmpty { body = empty("No periods logged.") }
    return section("cycle", "Cycle", body)
  }

  static func medications(_ data: ReportData) -> String {
    guard !data.medications.isEmpty else { return section("medications", "Medications", empty("No medications.")) }
    let byName = Dictionary(
      (data.adherence?.scheduled ?? []).map { ($0.name, $0.counts) }, uniquingKeysWith: { a, _ in a })
    let asNeeded = Dictionary(
      (data.adherence?.asNeeded ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var body = table(
      ["Medication", "Dose now", "Schedule", "Since", "Taken, 90 days", "Stock"],
      data.medications.map { m in
        var dose = m.dose.isEmpty ? "–" : m.dose
        if let steps = m.steps {
          dose =
            (m.dose.isEmpty ? "taper over" : "now \(m.dose)")
            + (m.ends.map { ", ends \(HumanText.date($0))" } ?? ", then kept") + " (steps \(steps))"
          if let last = m.ends, last < min(data.to, data.today) {
            dose = "taper over, last dose \(HumanText.date(last)) (steps \(steps))"
          }
        }
        var taken = "–"
        if m.asNeeded, let prn = asNeeded[m.name] {
          taken =
            HumanText.count(prn.taken, "dose") + " as needed"
            + (prn.overLimit > 0 ? ", \(prn.overLimit) over the limit" : "")
        } else if let counts = byName[m.name], let percent = counts.percent {
          taken =
            "\(counts.taken) of \(counts.decided) due (\(percent.wholeText) %)"
            + (counts.open > 0 ? ", \(counts.open) open" : "")
        }
        return [m.name, dose, m.schedule, HumanText.date(m.since), taken, m.stock.map(String.init) ?? "–"]
      })
    body +=
      ReportCharts.adherence(data).map(\.svg)
      ?? empty("No scheduled doses were due in the 90 days to \(HumanText.date(data.to)).")
    return section("medications", "Medications", body)
  }

  static func steps(_ data: ReportData) -> String {
    section(
      "steps", "Steps",
      ReportCharts.steps(data).map(\.svg)
        ?? empty("No steps recorded between \(HumanText.date(data.from)) and \(HumanText.date(data.to))."))
  }

  /// Sleep and the measurements a doctor asks after: weight, resting heart rate, blood pressure.
  static func body(_ data: ReportData) -> String {
    let window = "between \(HumanText.date(data.from)) and \(HumanText.date(data.to))"
    let drawn: [(String, SVGChart?)] = [
      ("sleep in the \(data.nights.count) nights up to \(HumanText.date(data.to))", ReportCharts.sleep(data)),
      ("weight \(window)", ReportCharts.vital(.weight, data.weight)),
      ("resting heart rate \(window)", ReportCharts.vital(.restingHeartRate, data.restingHeartRate)),
      ("blood pressure \(window)", ReportCharts.bloodPressure(data.bloodPressure)),
    ]
    // Four charts under one heading: each names itself, as the y axis alone does not.
    let charts = drawn.compactMap { $0.1.map { "<h3>\(escaped($0.title))</h3>\n" + $0.svg } }
    let figures = measurements(data) + stages(data)
    guard !charts.isEmpty || !figures.isEmpty else {
      return section(
        "body", "Sleep and vitals", empty("No sleep, weight, resting heart rate or blood pressure recorded \(window)."))
    }
    // A chart left out says so: a reader should not take a missing one for a page cut short.
    let missing = drawn.filter { $0.1 == nil }.map(\.0)
    let note = missing.isEmpty ? "" : "\n" + empty("Not recorded: " + missing.joined(separator: "; ") + ".")
    return section("body", "Sleep and vitals", figures + charts.joined(separator: "\n") + note)
  }

  /// Each vital measured in the window: how many readings, their range, the latest. A blood
  /// pressure's two numbers have ranges of their own, never a lowest reading nobody took.
  static func measurements(_ data: ReportData) -> String {
    guard !data.measurements.isEmpty else { return "" }
    let rows = data.measurements.map { m -> [String] in
      let n = { (v: Double) in VitalsText.number(v, m.kind) }
      let unit = " " + m.kind.unit
      let latest =
        n(m.latest.value) + (m.latest.diastolic.map { "/" + n($0) } ?? "") + unit + ", "
        + HumanText.date(LocalDate(m.latest.at, in: data.calendar))
      if let lower = m.diastolic {
        return [
          m.kind.label.capitalizingFirst, String(m.value.count),
          "systolic \(n(m.value.minimum)), diastolic \(n(lower.minimum))",
          "\(n(m.value.average))/\(n(lower.average))\(unit)",
          "systolic \(n(m.value.maximum)), diastolic \(n(lower.maximum))", latest,
        ]
      }
      return [
        m.kind.label.capitalizingFirst, String(m.value.count), n(m.value.minimum), n(m.value.average) + unit,
        n(m.value.maximum), latest,
      ]
    }
    return "<h3>Measurements between \(HumanText.date(data.from)) and \(HumanText.date(data.to))</h3>\n"
      + table(["Measurement", "Readings", "Lowest", "Average", "Highest", "Latest"], rows) + "\n"
  }

  /// The nights' stages on average, over the nights a source staged; a stage no source of a
  /// night reports is left out of that night, not counted as none.
  static func stages(_ data: ReportData) -> String {
    // Staged as `health sleep` shows it: a night a phone app only called "asleep" is not.
    let staged = data.nights.compactMap(\.night).filter(\.isStaged)
    guard !staged.isEmpty else { return "" }
    let hours = { (seconds: [Int]) in
      String(format: "%.1f h", Double(seconds.reduce(0, +)) / 3600 / Double(seconds.count))
    }
    var parts: [String] = []
    for (state, name) in [(SleepState.core, "core"), (.deep, "deep"), (.rem, "REM")] {
      let seconds = staged.filter { !$0.unknown.contains(state) }.map { $0.stages[state, default: 0] }
      if !seconds.isEmpty, seconds.contains(where: { $0 > 0 }) { parts.append("\(name) \(hours(seconds))") }
    }
    let awake = staged.filter { !$0.unknown.contains(.awake) }.map(\.awake)
    return "<p>On the \(HumanText.count(staged.count, "night")) with sleep stages: asleep "
      + hours(staged.compactMap(\.asleep)) + " on average"
      + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
      + (awake.isEmpty ? "" : ", awake \(hours(awake))") + ".</p>\n"
  }

  static func places(_ data: ReportData) -> String {
    guard !data.places.isEmpty else { return section("places", "Watched places", empty("No watched places.")) }
    var body = table(
      ["Place", "District", "7-day incidence per 100,000", "Phase", "Figures of"],
      data.places.map { p in
        [
          p.label, p.area ?? "outside the imported districts", p.incidence.map { String(format: "%.1f", $0) } ?? "–",
          p.phase.map { "<span class=\"phase \($0.rawValue)\">\(escaped($0.label.en))</span>" } ?? "unknown",
          p.asOf.map { HumanText.date($0) + (p.age.map { " (\(HumanText.count($0, "day")) old)" } ?? "") } ?? "–",
        ]
      }, raw: [3])
    let stale = data.places.compactMap(\.age).max().map { $0 > AreaStore.staleAfterDays } == true
    if stale {
      body +=
        "<p class=\"warning\">Some figures are more than \(AreaStore.staleAfterDays) days old: the phase may have changed since.</p>"
    }
    return section("places", "Watched places", body)
  }

  static func section(_ id: String, _ title: String, _ body: String) -> String {
    "<section id=\"\(id)\"><h2>\(escaped(title))</h2>\n\(body)\n</section>"
  }

  static func empty(_ text: String) -> String { "<p class=\"empty\">\(escaped(text))</p>" }

  /// A table; cells are text, escaped, except the columns in `raw` (already HTML).
  /// A table of more than 3 columns keeps a width a phone scrolls sideways, unless `narrow`
  /// says its cells fold.
  static func table(
    _ columns: [String], _ rows: [[String]], header: Bool = true, raw: Set<Int> = [], narrow: Bool = false
  ) -> String {
    var out = "<div class=\"table\"><table\(columns.count > 3 && !narrow ? " class=\"wide\"" : "")>"
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
    return out + "</tbody></table></div>"
  }

  static func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
}
