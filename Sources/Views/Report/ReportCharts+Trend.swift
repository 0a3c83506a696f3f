import Core
import Foundation
import Records

extension ReportCharts {
  /// A health trend as bars, a bar per day, week or month labelled as `vital health trend`
  /// labels its rows, green where the goal was met, each period's goal as a mark across its bar;
  /// a period without data has no bar and says so in its tooltip (never 0).
  static func trend(_ trend: Trend) -> SVGChart? {
    guard trend.rows.contains(where: { $0.total != nil }) else { return nil }
    let measure = trend.measure
    let high = trend.rows.map { max($0.total ?? 0, $0.goal ?? 0) }.max() ?? 1
    let ticks = niceTicks(low: 0, high: max(high, 1))
    let yRange = 0...ticks.last!
    let withData = trend.rows.filter { $0.total != nil }
    let goals = trend.rows.filter { $0.met != nil }
    var summary =
      "\(measure.rawValue) in \(HumanText.count(trend.rows.count, "period")) from \(HumanText.date(trend.rows.first!.from)) to \(HumanText.date(trend.rows.last!.through)), \(withData.count) with data"
    if !goals.isEmpty { summary += "; goal met in \(goals.filter { $0.met == true }.count) of \(goals.count)" }
    var chart = SVGChart(
      name: "trend-\(measure.rawValue)", title: "\(measure.rawValue.capitalized) per period", summary: summary)
    let slot = chart.plotWidth / Double(trend.rows.count)
    let every = max(1, Int((Double(trend.rows.count) / 8).rounded(.up)))
    let xTicks = trend.rows.enumerated().filter { $0.offset % every == 0 }.map { index, row in
      (chart.left + slot * (Double(index) + 0.5), row.label)
    }
    chart.axes(
      x: "period", xTicks: xTicks, y: measure.unit,
      yTicks: ticks.map { (chart.y($0, in: yRange), $0 >= 10_000 ? "\(($0 / 1000).wholeText)k" : $0.wholeText) })
    let base = chart.top + chart.plotHeight
    for (index, row) in trend.rows.enumerated() {
      let x = chart.left + slot * Double(index) + slot * 0.15
      let width = slot * 0.7
      guard let total = row.total else {
        chart.add(
          #"<rect class="nodata" x="\#(f(x))" y="\#(f(base - 2))" width="\#(f(width))" height="2"><title>\#(escaped(row.label)): no data</title></rect>"#
        )
        continue
      }
      let top = chart.y(total, in: yRange)
      let goal = row.goal.map { ", goal \(measure.text($0))" } ?? ""
      chart.add(
        #"<rect class="bar\#(row.met == true ? " met" : "")" x="\#(f(x))" y="\#(f(top))" width="\#(f(width))" height="\#(f(base - top))"><title>\#(escaped(row.label)): \#(escaped(measure.text(total)))\#(escaped(goal))</title></rect>"#
      )
      if let g = row.goal {
        let y = chart.y(g, in: yRange)
        chart.add(#"<line class="goal" x1="\#(f(x - 2))" y1="\#(f(y))" x2="\#(f(x + width + 2))" y2="\#(f(y))"/>"#)
      }
    }
    chart.key("rect bar", "\(measure.rawValue) in the period (no bar: no data)")
    if !goals.isEmpty {
      chart.key("rect bar met", "goal met")
      chart.key("line goal", "the period's goal")
    }
    return chart
  }
}
