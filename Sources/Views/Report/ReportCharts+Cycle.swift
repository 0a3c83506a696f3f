import Core
import Foundation
import Records

extension ReportCharts {
  /// Cycle lengths as bars, each from one period's start to the next, labelled with its first
  /// day in words, and their average as a line.
  static func cycles(_ data: ReportData) -> SVGChart? {
    let starts = data.periods.map(\.start).sorted()
    let lengths = zip(starts, starts.dropFirst()).map { ($0, $0.days(to: $1)) }
    guard !lengths.isEmpty else { return nil }
    let mean = Double(lengths.map(\.1).reduce(0, +)) / Double(lengths.count)
    var summary =
      "\(HumanText.count(lengths.count, "cycle")), \(lengths.map(\.1).min()!) to \(HumanText.count(lengths.map(\.1).max()!, "day"))"
      + String(format: ", %.1f on average", mean)
    if let next = data.nextPeriod { summary += "; next period predicted for \(HumanText.date(next))" }
    var chart = SVGChart(name: "cycles", title: "Cycle lengths", summary: summary)
    let ticks = niceTicks(low: 0, high: Double(max(35, lengths.map(\.1).max()!)))
    let yRange = 0...ticks.last!
    let slot = chart.plotWidth / Double(lengths.count)
    let every = max(1, Int((Double(lengths.count) / 8).rounded(.up)))
    let years = Set(lengths.map(\.0.year))
    chart.axes(
      x: years.count == 1 ? "first day of the cycle, \(years.first!)" : "first day of the cycle",
      xTicks: lengths.enumerated().filter { $0.offset % every == 0 }.map { i, entry in
        let day = entry.0
        let text = "\(day.day) \(HumanText.months[day.month - 1])" + (years.count == 1 ? "" : " \(day.year)")
        return (chart.left + slot * (Double(i) + 0.5), text)
      }, y: "length (days)", yTicks: ticks.map { (chart.y($0, in: yRange), String(Int($0))) })
    for (i, (start, days)) in lengths.enumerated() {
      let top = chart.y(Double(days), in: yRange)
      chart.add(
        #"<rect class="bar" x="\#(f(chart.left + slot * Double(i) + slot * 0.15))" y="\#(f(top))" width="\#(f(slot * 0.7))" height="\#(f(chart.top + chart.plotHeight - top))"><title>from \#(HumanText.date(start)): \#(days) days</title></rect>"#
      )
    }
    let y = chart.y(mean, in: yRange)
    chart.add(
      #"<line class="average" x1="\#(f(chart.left))" y1="\#(f(y))" x2="\#(f(chart.left + chart.plotWidth))" y2="\#(f(y))"/>"#
    )
    chart.key("rect bar", "a cycle's length, from the first day of one period to the next")
    chart.key("line average", String(format: "the average: %.1f days", mean))
    return chart
  }

  /// Waking temperatures of one cycle by cycle day, the cover line and the day the shift began,
  /// as a sympto-thermal chart on paper shows them.
  static func temperatures(_ data: ReportData) -> SVGChart? {
    guard let cycle = data.temperatures else { return nil }
    let length = max(cycle.start.days(to: cycle.end) + 1, 14)
    let range = 0.5...Double(length) + 0.5
    let all = cycle.points.map(\.celsius)
    let cover = cycle.signs.temperatureShift?.coverLine
    let low = ((min(all.min()!, cover ?? 99) - 0.1) * 10).rounded(.down) / 10
    let high = ((max(all.max()!, cover ?? 0) + 0.1) * 10).rounded(.up) / 10
    var summary =
      "\(cycle.underWay ? "The cycle under way" : "The last charted cycle"), from \(HumanText.date(cycle.start)): "
      + HumanText.count(cycle.points.count, "waking temperature")
    if let shift = cycle.signs.temperatureShift {
      let day = cycle.start.days(to: shift.firstHigh) + 1
      summary +=
        String(format: "; temperature shift from cycle day %d over a cover line of %.2f °C", day, shift.coverLine)
        + ", confirmed \(HumanText.date(shift.confirmed))"
    } else {
      summary += "; no temperature shift yet"
    }
    if let infertile = cycle.signs.infertileFrom {
      summary += "; infertile by the sympto-thermal rules from \(HumanText.date(infertile)) (not contraception advice)"
    }
    var chart = SVGChart(name: "temperature", title: "Waking temperature", summary: summary)
    chart.days = cycle.start...cycle.end
    var yTicks: [Double] = []
    var t = low
    let step = high - low > 0.8 ? 0.2 : 0.1
    while t <= high + 0.001 {
      yTicks.append((t * 100).rounded() / 100)
      t += step
    }
    let yRange = low...max(high, low + 0.3)
    let every = length > 30 ? 5 : length > 14 ? 3 : 1
    let xTicks = stride(from: 1, through: length, by: every).map { day in
      (chart.x(Double(day), in: range), String(day))
    }
    chart.axes(
      x: "cycle day (day 1: \(HumanText.date(cycle.start)))", xTicks: xTicks, y: "°C",
      yTicks: yTicks.map { (chart.y($0, in: yRange), String(format: "%.1f", $0)) })
    func x(_ day: LocalDate) -> Double { chart.x(Double(cycle.start.days(to: day) + 1), in: range) }
    if let shift = cycle.signs.temperatureShift {
      let y = chart.y(shift.coverLine, in: yRange)
      chart.add(
        #"<line class="goal" x1="\#(f(chart.left))" y1="\#(f(y))" x2="\#(f(chart.left + chart.plotWidth))" y2="\#(f(y))"/>"#
      )
      let sx = x(shift.firstHigh)
      chart.add(
        #"<line class="marker" x1="\#(f(sx))" y1="\#(f(chart.top))" x2="\#(f(sx))" y2="\#(f(chart.top + chart.plotHeight))"/>"#
      )
      chart.add(
        #"<text class="marker-label" x="\#(f(sx + 4))" y="\#(f(chart.top + 10))">shift, day \#(cycle.start.days(to: shift.firstHigh) + 1)</text>"#
      )
      chart.key(
        "line goal", String(format: "cover line %.2f °C: the highest of the six days before the shift", shift.coverLine)
      )
      chart.key("line marker", "the first higher temperature")
    }
    let points = cycle.points.filter { !$0.excluded }.map { "\(f(x($0.date))),\(f(chart.y($0.celsius, in: yRange)))" }
    if points.count > 1 { chart.add(#"<polyline class="trend" points="\#(points.joined(separator: " "))"/>"#) }
    for p in cycle.points {
      chart.add(
        #"<circle class="\#(p.excluded ? "excluded" : "hb")" cx="\#(f(x(p.date)))" cy="\#(f(chart.y(p.celsius, in: yRange)))" r="3"><title>\#(HumanText.date(p.date)), day \#(cycle.start.days(to: p.date) + 1): \#(String(format: "%.2f", p.celsius)) °C\#(p.excluded ? ", left out" : "")</title></circle>"#
      )
    }
    chart.key("circle hb", "waking temperature")
    if cycle.points.contains(where: \.excluded) { chart.key("circle excluded", "left out (fever, a short night)") }
    return chart
  }
}
