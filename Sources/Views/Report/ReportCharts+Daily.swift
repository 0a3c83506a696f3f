import Core
import Foundation
import Records

extension ReportCharts {
  /// The last 90 days as a calendar: a column per week, a row per weekday, each day coloured by
  /// the share of its due scheduled doses that were taken, with its day of the month when the
  /// weeks are few enough for the cells to hold it. Doses taken as needed are never due: they
  /// are named in a day's tooltip and counted apart.
  static func adherence(_ data: ReportData) -> SVGChart? {
    guard let adherence = data.adherence, let share = adherence.total.percent else { return nil }
    let total = adherence.total
    // From the first day a schedule had a dose due, not the window's start.
    let first = adherence.days.first { $0.counts.scheduled > 0 || $0.asNeeded > 0 }?.date ?? adherence.first
    var summary =
      "\(total.taken) of \(HumanText.count(total.decided, "due dose")) taken (\(share.wholeText) %) from "
      + "\(HumanText.date(first)) to \(HumanText.date(adherence.last)), scheduled doses only"
    if total.open > 0 { summary += "; \(total.open) still open" }
    let asNeeded = adherence.asNeeded.reduce(0) { $0 + $1.taken }
    if asNeeded > 0 { summary += "; \(HumanText.count(asNeeded, "dose")) taken as needed, not counted" }
    let title =
      first > adherence.first
      ? "Scheduled doses taken since \(HumanText.date(first))" : "Scheduled doses taken, last 90 days"
    // Monday is row 0: ordinal 0 (1970-01-01) was a Thursday.
    func weekday(_ day: LocalDate) -> Int { ((day.ordinal % 7) + 10) % 7 }
    let firstMonday = first.ordinal - weekday(first)
    let weeks = Double((adherence.last.ordinal - firstMonday) / 7 + 1)
    let cell = max(13, min(26, (680 - 56 - 16) / weeks - 2))
    var chart = SVGChart(name: "adherence", title: title, summary: summary, height: 7 * (cell + 2) + 16 + 52)
    // Thirteen weeks fill about half its width: its newest week is near its start.
    chart.opensAtStart = true
    for (i, name) in ["Mon", "", "Wed", "", "Fri", "", "Sun"].enumerated() where !name.isEmpty {
      chart.pin(
        #"<text class="tick" x="\#(f(chart.left - 6))" y="\#(f(chart.top + (cell + 2) * Double(i) + cell / 2 + 4))" text-anchor="end">\#(name)</text>"#
      )
    }
    var months: [(x: Double, text: String)] = []
    for entry in adherence.days where entry.date >= first {
      let column = Double((entry.date.ordinal - firstMonday) / 7)
      let x = chart.left + column * (cell + 2)
      let y = chart.top + Double(weekday(entry.date)) * (cell + 2)
      let counts = entry.counts
      let level =
        counts.share.map { ["0", "1", "2", "3", "4"][max(0, min(4, ($0 * 4).rounded(.down).saturatingInt))] } ?? "none"
      var label =
        counts.decided == 0
        ? (counts.open > 0 ? "\(HumanText.count(counts.open, "dose")) still open" : "no scheduled dose due")
        : "\(counts.taken) of \(HumanText.count(counts.decided, "due dose")) taken"
      if counts.decided > 0, counts.open > 0 { label += ", \(counts.open) still open" }
      if entry.asNeeded > 0 { label += "; \(HumanText.count(entry.asNeeded, "dose")) as needed" }
      chart.add(
        #"<rect class="day level-\#(level)" x="\#(f(x))" y="\#(f(y))" width="\#(f(cell))" height="\#(f(cell))"><title>\#(HumanText.date(entry.date)): \#(label)</title></rect>"#
      )
      if cell >= 18 {
        chart.add(
          #"<text class="daynum" x="\#(f(x + cell / 2))" y="\#(f(y + cell / 2 + 3.5))" text-anchor="middle">\#(entry.date.day)</text>"#
        )
      }
      if entry.date.day == 1 || entry.date == first { months.append((x, HumanText.month(entry.date))) }
    }
    // A month's name under its first column; when two would touch, the later one wins.
    var labels: [(x: Double, text: String)] = []
    for month in months {
      if let last = labels.last, month.x - last.x < 56 { labels.removeLast() }
      labels.append(month)
    }
    for label in labels {
      chart.add(
        #"<text class="tick" x="\#(f(label.x))" y="\#(f(chart.top + 7 * (cell + 2) + 12))">\#(label.text)</text>"#)
    }
    let legendY = chart.top + 7 * (cell + 2) + 30
    chart.add(
      #"<text class="axis-label" x="\#(f(chart.left))" y="\#(f(legendY + 10))">share of due doses taken (%):</text>"#)
    // Each key as wide as its text (about 6 px a character at this size).
    var x = chart.left + 170
    for (level, text) in [("none", "none due"), ("0", "0"), ("1", "25"), ("2", "50"), ("3", "75"), ("4", "100")] {
      chart.add(#"<rect class="day level-\#(level)" x="\#(f(x))" y="\#(f(legendY))" width="13" height="13"/>"#)
      chart.add(#"<text class="tick" x="\#(f(x + 17))" y="\#(f(legendY + 10))">\#(text)</text>"#)
      x += 17 + Double(text.count) * 6 + 14
    }
    return chart
  }

  /// Steps per day as bars over the days with data (not the whole window), green where the
  /// goal was met, and the goal as a line named in the legend.
  static func steps(_ data: ReportData) -> SVGChart? {
    guard let first = data.steps.first?.day, let last = data.steps.last?.day else { return nil }
    let days = span(first, max(last, min(data.to, data.today)), pad: 1)
    let range = range(days)
    let high = max(data.steps.map(\.steps).max()!, data.stepsGoal ?? 0)
    let ticks = niceTicks(low: 0, high: high)
    let yRange = 0...ticks.last!
    let met = data.stepsGoal.map { goal in data.steps.count { $0.steps >= goal } }
    let mean = (data.steps.map(\.steps).reduce(0, +) / Double(data.steps.count)).wholeText
    var summary =
      "\(HumanText.count(data.steps.count, "day")) with steps from \(HumanText.date(first)) to \(HumanText.date(last)), \(mean) a day on average"
    if let goal = data.stepsGoal, let met {
      summary += "; goal of \(goal.wholeText) met on \(HumanText.count(met, "day"))"
    }
    var chart = SVGChart(name: "steps", title: "Steps per day", summary: summary)
    chart.days = days
    let (xTicks, xLabel) = dateTicks(days, chart: chart)
    chart.axes(
      x: xLabel, xTicks: xTicks, y: "steps per day",
      yTicks: ticks.map { (chart.y($0, in: yRange), $0 >= 1000 ? "\(($0 / 1000).wholeText)k" : $0.wholeText) })
    let width = max(0.6, chart.plotWidth / (range.upperBound - range.lowerBound) * 0.8)
    for (day, steps) in data.steps {
      let top = chart.y(steps, in: yRange)
      let met = data.stepsGoal.map { steps >= $0 } ?? false
      chart.add(
        #"<rect class="bar\#(met ? " met" : "")" x="\#(f(chart.x(Double(day.ordinal) + 0.1, in: range)))" y="\#(f(top))" width="\#(f(width))" height="\#(f(chart.top + chart.plotHeight - top))"><title>\#(HumanText.date(day)): \#(steps.wholeText) steps</title></rect>"#
      )
    }
    chart.key("rect bar", "steps on a day (no bar: no data that day)")
    if let goal = data.stepsGoal {
      let y = chart.y(goal, in: yRange)
      chart.add(
        #"<line class="goal" x1="\#(f(chart.left))" y1="\#(f(y))" x2="\#(f(chart.left + chart.plotWidth))" y2="\#(f(y))"/>"#
      )
      chart.key("rect bar met", "goal met")
      chart.key("line goal", "goal: \(goal.wholeText) steps a day")
    }
    return chart
  }
}
