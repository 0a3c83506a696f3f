import Core
import Foundation
import Records

/// `/cycle`: a month as a calendar (periods, predicted periods, fertile days, ovulation,
/// confirmed infertile days, today), the note of the day chosen on it, the temperature chart
/// of the cycle under way, the cycle lengths and how good the predictions have been.
struct CyclePage {
  let year: Int
  let month: Int
  let days: [(LocalDate, [CycleMark])]
  let today: LocalDate
  let chosen: LocalDate
  let fields: CycleFields
  let errors: [String: String]
  let temperatures: String?
  let cycles: String?
  let backtest: CycleBacktest?
  let formToken: String

  var page: Page { Page(title: "Cycle", body: body) }

  var body: HTML {
    """
    \(calendar)\(note)\(chart("temperatures", "Temperatures", temperatures))\(chart("lengths", "Cycle lengths", cycles))\(predictions)
    """
  }

  static let names: [CycleMark: String] = [
    .period: "period", .predicted: "predicted period", .fertile: "fertile", .ovulation: "ovulation",
    .infertile: "infertile (confirmed)",
  ]

  var calendar: HTML {
    let first = LocalDate(year: year, month: month, day: 1)!
    let previous = first.adding(days: -1)
    let next = first.adding(days: 32)
    let title = "\(HumanText.months[month - 1]) \(year)"
    var cells: [HTML] = Array(repeating: "<td></td>", count: first.weekday - 1)
    for (day, marks) in days {
      let classes = (marks.map(\.rawValue) + (day == today ? ["today"] : []) + (day == chosen ? ["chosen"] : []))
        .joined(separator: " ")
      let words = (marks.compactMap { Self.names[$0] } + (day == today ? ["today"] : [])).joined(separator: ", ")
      let label: HTML = words.isEmpty ? "" : "<span class=\"visually-hidden\">, \(words)</span>"
      let current: HTML = day == chosen ? " aria-current=\"date\"" : ""
      cells.append(
        """
        <td class="\(classes)"><a href="/cycle?month=\(Self.monthText(year, month))&amp;day=\(day.description)"\(current)>\(day.day)\(label)</a></td>
        """)
    }
    while cells.count % 7 != 0 { cells.append("<td></td>") }
    let rows = stride(from: 0, to: cells.count, by: 7).map { start -> HTML in
      "<tr>\(Array(cells[start..<start + 7]))</tr>\n"
    }
    let legend = [CycleMark.period, .predicted, .fertile, .ovulation, .infertile].map { mark -> HTML in
      "<li><span class=\"swatch \(mark.rawValue)\"></span>\(Self.names[mark]!)</li>"
    }
    return """
      <section aria-labelledby="month"><h2 id="month">\(title)</h2>
      <p class="row"><a href="/cycle?month=\(Self.monthText(previous.year, previous.month))">← \(HumanText.months[previous.month - 1])</a>\
      <a href="/cycle">This month</a>\
      <a href="/cycle?month=\(Self.monthText(next.year, next.month))">\(HumanText.months[next.month - 1]) →</a></p>
      <table class="calendar"><caption class="visually-hidden">\(title): pick a day to see or write its note</caption>
      <thead><tr><th scope="col">Mo</th><th scope="col">Tu</th><th scope="col">We</th><th scope="col">Th</th><th scope="col">Fr</th><th scope="col">Sa</th><th scope="col">Su</th></tr></thead>
      <tbody>
      \(rows)</tbody></table>
      <ul class="legend calendar-legend">\(legend)<li><span class="swatch today"></span>today</li></ul></section>

      """
  }

  var note: HTML {
    let title = HumanText.longDate(chosen)
    let form: HTML =
      chosen > today
      ? "<p class=\"quiet\">A day ahead has no note yet.</p>"
      : """
      <form method="post" action="/cycle/note"><input type="hidden" name="csrf" value="\(formToken)">
      \(fields.html(errors: errors))<button type="submit">Save note</button></form>
      """
    return """
      <section aria-labelledby="note"><h2 id="note">Note of \(title)</h2>
      \(form)</section>

      """
  }

  func chart(_ id: String, _ heading: String, _ svg: String?) -> HTML {
    guard let svg else { return "" }
    return """
      <section aria-labelledby="\(id)"><h2 id="\(id)">\(heading)</h2>\(HTML(trusted: svg))</section>

      """
  }

  var predictions: HTML {
    guard let backtest, let error = backtest.meanAbsoluteError else { return "" }
    let share =
      backtest.inRangeShare.map { " \(Int(($0 * 100).rounded())) % of periods began within the range given." } ?? ""
    return """
      <section aria-labelledby="backtest"><h2 id="backtest">How good the predictions have been</h2>
      <p>Over \(HumanText.count(backtest.counted.count, "cycle")), a prediction was \(String(format: "%.1f", error)) days off on average.\(share) 'vital cycle backtest' lists each.</p></section>

      """
  }

  static func monthText(_ year: Int, _ month: Int) -> String { String(format: "%04d-%02d", year, month) }
}
