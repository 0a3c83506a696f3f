import Core
import Foundation
import Records

extension ReportCharts {
  /// The last 30 nights: hours in bed, and over them hours asleep; a night nothing was said of
  /// has no bar and says so (never 0).
  static func sleep(_ data: ReportData) -> SVGChart? {
    let known = data.nights.compactMap(\.night)
    guard !known.isEmpty else { return nil }
    let hours = { (seconds: Int) in Double(seconds) / 3600 }
    let ticks = niceTicks(low: 0, high: max(10, known.map { hours($0.inBed) }.max() ?? 10))
    let yRange = 0...ticks.last!
    let asleep = known.compactMap(\.asleep)
    var summary = "\(known.count) of the last \(data.nights.count) nights with sleep recorded"
    if !asleep.isEmpty {
      let average = hours(asleep.reduce(0, +) / asleep.count)
      summary += String(format: "; asleep %.1f hours a night on average", average)
    }
    var chart = SVGChart(name: "sleep", title: "Sleep per night", summary: summary)
    let slot = chart.plotWidth / Double(data.nights.count)
    let xTicks = data.nights.enumerated().filter { $0.offset % 7 == 0 }.map { index, entry in
      (chart.left + slot * (Double(index) + 0.5), "\(entry.day.day) \(HumanText.months[entry.day.month - 1])")
    }
    chart.axes(
      x: "night, by the day it ended", xTicks: xTicks, y: "hours",
      yTicks: ticks.map { (chart.y($0, in: yRange), $0.wholeText) })
    let base = chart.top + chart.plotHeight
    for (index, entry) in data.nights.enumerated() {
      let x = chart.left + slot * Double(index) + slot * 0.15
      let width = slot * 0.7
      let label = HumanText.date(entry.day)
      guard let night = entry.night else {
        chart.add(
          #"<rect class="nodata" x="\#(f(x))" y="\#(f(base - 2))" width="\#(f(width))" height="2"><title>\#(escaped(label)): no data</title></rect>"#
        )
        continue
      }
      let inBed = chart.y(hours(night.inBed), in: yRange)
      let said =
        String(format: "%.1f hours in bed", hours(night.inBed))
        + (night.asleep.map { String(format: ", %.1f asleep", hours($0)) } ?? ", no sleep stages recorded")
      // One title per night, on the group: a screen reader reads each night once, not per bar.
      var shapes =
        #"<rect class="inbed" x="\#(f(x))" y="\#(f(inBed))" width="\#(f(width))" height="\#(f(base - inBed))"/>"#
      if let asleep = night.asleep {
        let top = chart.y(hours(asleep), in: yRange)
        shapes +=
          #"<rect class="bar" x="\#(f(x + width * 0.2))" y="\#(f(top))" width="\#(f(width * 0.6))" height="\#(f(base - top))"/>"#
      }
      chart.add(#"<g class="night"><title>\#(escaped(label)): \#(escaped(said))</title>\#(shapes)</g>"#)
    }
    chart.key("rect inbed", "in bed")
    chart.key("rect bar", "asleep")
    chart.key("rect nodata", "no data")
    return chart
  }

  /// A measurement over the days it was taken: the day's mean as a point, joined by a line.
  static func vital(_ kind: VitalKind, _ points: [(day: LocalDate, value: Double)]) -> SVGChart? {
    guard let first = points.first, let last = points.last else { return nil }
    let days = span(first.day, last.day)
    let range = range(days)
    let values = points.map(\.value)
    let ticks = niceTicks(low: (values.min()! - 1).rounded(.down), high: (values.max()! + 1).rounded(.up))
    let yRange = ticks.first!...ticks.last!
    let summary =
      "\(HumanText.count(points.count, "day")) with a \(kind.label) reading from \(HumanText.date(first.day)) to \(HumanText.date(last.day)); "
      + "of the days' means, lowest \(VitalsText.number(values.min()!, kind)), highest \(VitalsText.number(values.max()!, kind)), the last day's \(VitalsText.number(last.value, kind)) \(kind.unit)"
    var chart = SVGChart(name: kind.rawValue, title: kind.label.capitalizingFirst, summary: summary, height: 180)
    chart.days = days
    let (xTicks, xLabel) = dateTicks(days, chart: chart)
    chart.axes(
      x: xLabel, xTicks: xTicks, y: kind.unit,
      yTicks: ticks.map { (chart.y($0, in: yRange), $0 == $0.rounded() ? $0.wholeText : String($0)) })
    let xy = points.map { (chart.x(Double($0.day.ordinal) + 0.5, in: range), chart.y($0.value, in: yRange)) }
    chart.add(#"<polyline class="trend" points="\#(xy.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " "))"/>"#)
    for (point, (x, y)) in zip(points, xy) {
      chart.add(
        #"<circle class="hb" cx="\#(f(x))" cy="\#(f(y))" r="3"><title>\#(escaped(HumanText.date(point.day))): \#(escaped(VitalsText.number(point.value, kind))) \#(escaped(kind.unit))</title></circle>"#
      )
    }
    chart.key("circle hb", "the day's mean")
    return chart
  }

  /// Each blood pressure reading as a line from its diastolic to its systolic number.
  static func bloodPressure(_ readings: [(day: LocalDate, systolic: Double, diastolic: Double)]) -> SVGChart? {
    guard let first = readings.first, let last = readings.last else { return nil }
    let days = span(first.day, last.day)
    let range = range(days)
    let ticks = niceTicks(
      low: ((readings.map(\.diastolic).min()! - 5) / 10).rounded(.down) * 10,
      high: readings.map(\.systolic).max()! + 5)
    let yRange = ticks.first!...ticks.last!
    let latest = "\(Int(last.systolic.rounded()))/\(Int(last.diastolic.rounded()))"
    let summary =
      "\(HumanText.count(readings.count, "reading")) from \(HumanText.date(first.day)) to \(HumanText.date(last.day)); latest \(latest) mmHg"
    var chart = SVGChart(name: "blood-pressure", title: "Blood pressure", summary: summary, height: 180)
    chart.days = days
    let (xTicks, xLabel) = dateTicks(days, chart: chart)
    chart.axes(
      x: xLabel, xTicks: xTicks, y: "mmHg", yTicks: ticks.map { (chart.y($0, in: yRange), $0.wholeText) })
    for reading in readings {
      let x = chart.x(Double(reading.day.ordinal) + 0.5, in: range)
      let (top, bottom) = (chart.y(reading.systolic, in: yRange), chart.y(reading.diastolic, in: yRange))
      let said =
        "\(HumanText.date(reading.day)): \(Int(reading.systolic.rounded()))/\(Int(reading.diastolic.rounded())) mmHg"
      chart.add(
        #"<line class="range" x1="\#(f(x))" y1="\#(f(top))" x2="\#(f(x))" y2="\#(f(bottom))"><title>\#(escaped(said))</title></line>"#
      )
      chart.add(#"<circle class="hb" cx="\#(f(x))" cy="\#(f(top))" r="2.5"/>"#)
      chart.add(#"<circle class="low" cx="\#(f(x))" cy="\#(f(bottom))" r="2.5"/>"#)
    }
    chart.key("circle hb", "systolic")
    chart.key("circle low", "diastolic")
    return chart
  }
}

/// Numbers of a vital as the report writes them: a tenth where it means something.
enum VitalsText {
  static func number(_ value: Double, _ kind: VitalKind) -> String {
    kind == .weight || kind == .hrv ? String(format: "%.1f", value) : String(Int(value.rounded()))
  }
}

extension String {
  var capitalizingFirst: String { prefix(1).uppercased() + dropFirst() }
}
