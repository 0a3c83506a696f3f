import Core
import Foundation
import Records

/// The report's charts, each an `SVGChart` of the data it shows, or nil when there is nothing to
/// draw (the section then says so in words instead of drawing empty axes). Time axes span the
/// data, not the report's window, and name days and months in words (`2 Nov`, `Sep 2026`).
enum ReportCharts {
  /// The days a chart of `data` spans: from a little before the first to a little after the
  /// last, at least `minimum` days.
  static func span(_ first: LocalDate, _ last: LocalDate, pad: Int = 3, minimum: Int = 14) -> ClosedRange<LocalDate> {
    var from = first.adding(days: -pad)
    var to = last.adding(days: pad)
    let short = minimum - from.days(to: to)
    if short > 0 {
      from = from.adding(days: -short / 2)
      to = to.adding(days: short - short / 2)
    }
    return from...to
  }

  static func range(_ days: ClosedRange<LocalDate>) -> ClosedRange<Double> {
    Double(days.lowerBound.ordinal)...Double(days.upperBound.ordinal + 1)
  }

  /// Ticks on a time axis: Mondays (`2 Nov`) over about ten weeks or less, else the first days
  /// of months (`Sep 2026`), at most about seven; and the axis's words (`date, 2026`).
  static func dateTicks(_ days: ClosedRange<LocalDate>, chart: SVGChart) -> (ticks: [(Double, String)], label: String) {
    let range = range(days)
    let (first, last) = (days.lowerBound, days.upperBound)
    let years = first.year == last.year ? "\(first.year)" : "\(first.year)–\(last.year)"
    if first.days(to: last) <= 72 {
      var monday = first.adding(days: (8 - first.weekday) % 7)
      var ticks: [(Double, String)] = []
      let every = first.days(to: last) > 42 ? 14 : 7
      while monday <= last {
        ticks.append(
          (chart.x(Double(monday.ordinal), in: range), "\(monday.day) \(HumanText.months[monday.month - 1])"))
        monday = monday.adding(days: every)
      }
      return (ticks, "date, \(years)")
    }
    var months: [LocalDate] = []
    var (year, month) = (first.year, first.month)
    while let day = LocalDate(year: year, month: month, day: 1), day <= last {
      if day >= first { months.append(day) }
      (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
    }
    let every = max(1, Int((Double(months.count) / 7).rounded(.up)))
    let ticks = months.enumerated().filter { $0.offset % every == 0 }.map { _, day in
      (chart.x(Double(day.ordinal), in: range), HumanText.month(day))
    }
    return (ticks, "date")
  }

  /// Haemoglobin measured at each donation as a line over the donations' days, the least the
  /// service takes as a labelled line, donations without a measurement as marks on the time
  /// axis, and the next eligible day.
  static func donations(_ data: ReportData) -> SVGChart? {
    let dated = data.donations.compactMap { d in d.completedAt.map { (LocalDate($0, in: data.calendar), d) } }
    guard let first = dated.first?.0, let lastDonation = dated.last?.0 else { return nil }
    let last = max(lastDonation, data.nextEligible ?? lastDonation, min(data.to, data.today))
    let days = span(first, last, pad: 14, minimum: 60)
    let range = range(days)
    let hbs = dated.compactMap { day, d in d.vitals.haemoglobin.map { (day, $0) } }
    let low = min(hbs.map(\.1).min() ?? 12, data.minimumHaemoglobin ?? 99)
    let hbRange = low.rounded(.down) - 1...max((hbs.map(\.1).max() ?? 15).rounded(.up) + 1, low + 3)
    var summary =
      "\(HumanText.count(dated.count, "donation")) from \(HumanText.date(first)) to \(HumanText.date(lastDonation))"
    if let last = hbs.last { summary += "; latest haemoglobin \(String(format: "%.1f", last.1)) g/dL" }
    if let next = data.nextEligible { summary += "; may donate again from \(HumanText.date(next))" }
    var chart = SVGChart(name: "donations", title: "Donations and haemoglobin", summary: summary)
    chart.days = days
    let ticks = niceTicks(low: hbRange.lowerBound, high: hbRange.upperBound)
    let yRange = ticks.first!...ticks.last!
    let (xTicks, xLabel) = dateTicks(days, chart: chart)
    chart.axes(
      x: xLabel, xTicks: xTicks, y: "Hb (g/dL)",
      yTicks: ticks.map { (chart.y($0, in: yRange), $0 == $0.rounded() ? $0.wholeText : String($0)) })
    if let next = data.nextEligible, range.contains(Double(next.ordinal)) {
      let x = chart.x(Double(next.ordinal), in: range)
      chart.add(
        #"<line class="marker" x1="\#(f(x))" y1="\#(f(chart.top))" x2="\#(f(x))" y2="\#(f(chart.top + chart.plotHeight))"/>"#
      )
      chart.add(
        #"<text class="marker-label" x="\#(f(x - 4))" y="\#(f(chart.top + 10))" text-anchor="end">may donate again \#(HumanText.date(next))</text>"#
      )
      chart.key("line marker", "the day you may donate again")
    }
    if let minimum = data.minimumHaemoglobin, !hbs.isEmpty {
      let y = chart.y(minimum, in: yRange)
      chart.add(
        #"<line class="goal" x1="\#(f(chart.left))" y1="\#(f(y))" x2="\#(f(chart.left + chart.plotWidth))" y2="\#(f(y))"/>"#
      )
      chart.add(
        #"<text class="marker-label" x="\#(f(chart.left + 4))" y="\#(f(y + 12))">minimum to donate \#(String(format: "%.1f", minimum)) g/dL</text>"#
      )
      chart.key(
        "line goal",
        "the least haemoglobin the service takes: \(String(format: "%.1f", minimum)) g/dL (\(data.profile.region.rawValue), \(data.profile.sex?.rawValue ?? "sex not set"))"
      )
    }
    if let (day, _) = hbs.last { chart.newestMark(at: chart.x(Double(day.ordinal) + 0.5, in: range)) }
    if !hbs.isEmpty {
      let points = hbs.map { day, hb in
        "\(f(chart.x(Double(day.ordinal) + 0.5, in: range))),\(f(chart.y(hb, in: yRange)))"
      }
      chart.add(#"<polyline class="trend" points="\#(points.joined(separator: " "))"/>"#)
      for (day, hb) in hbs {
        chart.add(
          #"<circle class="hb" cx="\#(f(chart.x(Double(day.ordinal) + 0.5, in: range)))" cy="\#(f(chart.y(hb, in: yRange)))" r="3.5"><title>\#(HumanText.date(day)): \#(String(format: "%.1f", hb)) g/dL</title></circle>"#
        )
      }
      chart.key("circle hb", "haemoglobin measured at a donation (g/dL)")
    }
    let unmeasured = dated.filter { $0.1.vitals.haemoglobin == nil }
    for (day, d) in unmeasured {
      let x = chart.x(Double(day.ordinal) + 0.5, in: range)
      let base = chart.top + chart.plotHeight
      chart.add(
        #"<rect class="donation" x="\#(f(x - 1.5))" y="\#(f(base - 12))" width="3" height="12"><title>\#(HumanText.date(day)): \#(d.kind.label), no haemoglobin recorded</title></rect>"#
      )
    }
    if !unmeasured.isEmpty { chart.key("rect donation", "a donation without a haemoglobin figure") }
    return chart
  }
}
