import Core
import Foundation

/// The report's charts, each an `SVGChart` of the data it shows, or nil when there is nothing to
/// draw (the section then says so in words instead of drawing empty axes).
enum ReportCharts {
  /// Ticks on a time axis: the first days of months, at most about six of them.
  static func dateTicks(_ range: ClosedRange<Double>, chart: SVGChart) -> [(Double, String)] {
    let first = LocalDate(ordinal: Int(range.lowerBound))
    let last = LocalDate(ordinal: Int(range.upperBound))
    var months: [LocalDate] = []
    var year = first.year
    var month = first.month
    while let day = LocalDate(year: year, month: month, day: 1), day <= last {
      if day >= first { months.append(day) }
      (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
    }
    if months.isEmpty { months = [first] }
    let every = max(1, Int((Double(months.count) / 6).rounded(.up)))
    let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return months.enumerated().filter { $0.offset % every == 0 }.map { _, day in
      (
        chart.x(Double(day.ordinal), in: range),
        "\(names[day.month - 1]) \(day.year % 100 < 10 ? "0" : "")\(day.year % 100)"
      )
    }
  }

  /// Donations on a timeline, haemoglobin as a line where measured, and the next eligible day.
  static func donations(_ data: ReportData) -> SVGChart? {
    guard !data.donations.isEmpty else { return nil }
    let calendarDays = data.donations.compactMap { $0.completedAt }.map {
      Double(LocalDate($0, in: data.calendar).ordinal)
    }
    let end = max(Double(data.to.ordinal), Double(data.nextEligible?.ordinal ?? 0))
    let range = Double(data.from.ordinal)...max(end, Double(data.from.ordinal) + 1)
    let hbs = data.donations.compactMap { d in d.vitals.haemoglobin.map { (d, $0) } }
    let low = min(hbs.map(\.1).min() ?? 12, data.minimumHaemoglobin ?? 99)
    let hbRange = low.rounded(.down) - 1...(hbs.map(\.1).max() ?? 15).rounded(.up) + 1
    var summary =
      "\(data.donations.count) donation\(data.donations.count == 1 ? "" : "s") from \(data.from) to \(data.to)"
    if let last = hbs.last { summary += "; latest haemoglobin \(String(format: "%.1f", last.1)) g/dL" }
    if let next = data.nextEligible { summary += "; next eligible \(next)" }
    var chart = SVGChart(name: "donations", title: "Donations and haemoglobin", summary: summary)
    let ticks = niceTicks(low: hbRange.lowerBound, high: hbRange.upperBound)
    let yRange = ticks.first!...ticks.last!
    chart.axes(
      x: "date", xTicks: dateTicks(range, chart: chart), y: "Hb (g/dL)",
      yTicks: ticks.map { (chart.y($0, in: yRange), $0 == $0.rounded() ? String(Int($0)) : String($0)) })
    if let next = data.nextEligible, range.contains(Double(next.ordinal)) {
      let x = chart.x(Double(next.ordinal), in: range)
      chart.add(
        #"<line class="marker" x1="\#(f(x))" y1="\#(f(chart.top))" x2="\#(f(x))" y2="\#(f(chart.top + chart.plotHeight))"/>"#
      )
      chart.add(
        #"<text class="marker-label" x="\#(f(x - 4))" y="\#(f(chart.top + 10))" text-anchor="end">next eligible \#(next)</text>"#
      )
    }
    if let minimum = data.minimumHaemoglobin, !hbs.isEmpty {
      let y = chart.y(minimum, in: yRange)
      chart.add(
        #"<line class="goal" x1="\#(f(chart.left))" y1="\#(f(y))" x2="\#(f(chart.left + chart.plotWidth))" y2="\#(f(y))"/>"#
      )
      chart.add(
        #"<text class="marker-label" x="\#(f(chart.left + 4))" y="\#(f(y - 4))">least Hb taken: \#(minimum) g/dL</text>"#
      )
    }
    let baseline = chart.top + chart.plotHeight - 6
    for day in calendarDays {
      chart.add(
        #"<circle class="donation" cx="\#(f(chart.x(day, in: range)))" cy="\#(f(baseline))" r="4"><title>donation</title></circle>"#
      )
    }
    if !hbs.isEmpty {
      let points = hbs.map { d, hb in
        "\(f(chart.x(Double(LocalDate(d.completedAt!, in: data.calendar).ordinal), in: range))),\(f(chart.y(hb, in: yRange)))"
      }
      chart.add(#"<polyline class="trend" points="\#(points.joined(separator: " "))"/>"#)
      for (d, hb) in hbs {
        chart.add(
          #"<circle class="hb" cx="\#(f(chart.x(Double(LocalDate(d.completedAt!, in: data.calendar).ordinal), in: range)))" cy="\#(f(chart.y(hb, in: yRange)))" r="3.5"><title>\#(String(format: "%.1f", hb)) g/dL</title></circle>"#
        )
      }
    }
    return chart
  }

  /// Cycle lengths as bars (each from one period's start to the next), with the prediction.
  static func cycles(_ data: ReportData) -> SVGChart? {
    let starts = data.periods.map(\.start).sorted()
    let lengths = zip(starts, starts.dropFirst()).map { ($0, $0.days(to: $1)) }
    guard !lengths.isEmpty else { return nil }
    var summary =
      "\(lengths.count) cycle\(lengths.count == 1 ? "" : "s"), \(lengths.map(\.1).min()!) to \(lengths.map(\.1).max()!) days"
    if let next = data.nextPeriod { summary += "; next period predicted for \(next)" }
    var chart = SVGChart(name: "cycles", title: "Cycle lengths", summary: summary)
    let ticks = niceTicks(low: 0, high: Double(max(35, lengths.map(\.1).max()!)))
    let yRange = 0...ticks.last!
    let slot = chart.plotWidth / Double(lengths.count)
    let every = max(1, lengths.count / 8)
    chart.axes(
      x: "cycle start",
      xTicks: lengths.enumerated().filter { $0.offset % every == 0 }.map { i, entry in
        (chart.left + slot * (Double(i) + 0.5), "\(entry.0.description.dropFirst(2))")
      }, y: "length (days)", yTicks: ticks.map { (chart.y($0, in: yRange), String(Int($0))) })
    for (i, (start, days)) in lengths.enumerated() {
      let top = chart.y(Double(days), in: yRange)
      chart.add(
        #"<rect class="bar" x="\#(f(chart.left + slot * Double(i) + slot * 0.15))" y="\#(f(top))" width="\#(f(slot * 0.7))" height="\#(f(chart.top + chart.plotHeight - top))"><title>\#(start): \#(days) days</title></rect>"#
      )
    }
    return chart
  }
}
