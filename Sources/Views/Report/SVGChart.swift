import Core
import Foundation
import Records

/// An inline SVG chart: a plot area with axes, their labels with units, a title and a text
/// alternative for screen readers (`role="img"`, `aria-label`, `<title>`, `<desc>`).
struct SVGChart {
  let name: String
  let title: String
  let summary: String
  /// The width every chart is drawn at, and its left margin, where the value axis is written.
  static let standardWidth = 680.0
  static let margin = 56.0
  let width = standardWidth
  let height: Double
  let left = margin
  let right = 16.0
  let top = 16.0
  let bottom = 44.0
  private(set) var body = ""
  /// What the left margin shows again on a ground of its own (`pin`).
  private(set) var pinned: [String] = []
  /// What the marks mean, below the chart: a small drawing of each and its words.
  private(set) var legend: [(swatch: String, text: String)] = []
  /// The first and last day a time axis shows (`data-x-from`, `data-x-to`), for checks.
  var days: ClosedRange<LocalDate>?
  /// Whether a frame that scrolls sideways opens at the chart's start rather than its end (its
  /// newest days): for a chart whose marks fill only its left part.
  var opensAtStart = false

  /// Notes where the newest mark is: one in the left half of a chart whose right part is days
  /// to come (a donation chart runs to the day you may donate again) is out of view in a frame
  /// that opens at the end, so the frame opens at the start.
  mutating func newestMark(at x: Double) {
    opensAtStart = x < left + plotWidth / 2
  }

  init(name: String, title: String, summary: String, height: Double = 220) {
    self.name = name
    self.title = title
    self.summary = summary
    self.height = height
  }

  var plotWidth: Double { width - left - right }
  var plotHeight: Double { height - top - bottom }

  /// Maps `value` in `range` onto the plot's x (left to right) or y (bottom to top).
  func x(_ value: Double, in range: ClosedRange<Double>) -> Double {
    let span = range.upperBound - range.lowerBound
    return left + (span > 0 ? (value - range.lowerBound) / span : 0.5) * plotWidth
  }

  func y(_ value: Double, in range: ClosedRange<Double>) -> Double {
    let span = range.upperBound - range.lowerBound
    return top + plotHeight - (span > 0 ? (value - range.lowerBound) / span : 0.5) * plotHeight
  }

  mutating func add(_ element: String) { body += element + "\n" }

  /// Draws `element`, which stands in the left margin, and again on a layer of its own: on a
  /// phone the plot scrolls sideways under that layer (the stylesheets' `svg.y-axis`), so what
  /// the rows or values are stays in view wherever the plot is scrolled.
  mutating func pin(_ element: String, inPlot: Bool = true) {
    if inPlot { add(element) }
    pinned.append(element)
  }

  /// A legend entry drawn as `kind` (`line goal`, `circle hb`, `rect bar met`, ...).
  mutating func key(_ kind: String, _ text: String) {
    let parts = kind.split(separator: " ", maxSplits: 1).map(String.init)
    let (shape, style) = (parts[0], parts.count > 1 ? parts[1] : "")
    let swatch: String
    switch shape {
    case "line": swatch = #"<line class="\#(style)" x1="1" y1="6" x2="23" y2="6"/>"#
    case "circle": swatch = #"<circle class="\#(style)" cx="12" cy="6" r="4"/>"#
    default: swatch = #"<rect class="\#(style)" x="5" y="1" width="14" height="10"/>"#
    }
    legend.append((#"<svg width="24" height="12" aria-hidden="true">\#(swatch)</svg>"#, text))
  }

  /// The axes, with `ticks` labelled on each, and what each measures.
  mutating func axes(
    x label: String, xTicks: [(Double, String)], y yLabel: String, yTicks: [(Double, String)]
  ) {
    let baseY = top + plotHeight
    add(#"<line class="axis" x1="\#(f(left))" y1="\#(f(baseY))" x2="\#(f(left + plotWidth))" y2="\#(f(baseY))"/>"#)
    add(#"<line class="axis" x1="\#(f(left))" y1="\#(f(top))" x2="\#(f(left))" y2="\#(f(baseY))"/>"#)
    for (position, text) in xTicks {
      // A label by the plot's right edge ends there instead of running off the picture.
      let anchor = position > left + plotWidth - 24 ? "end" : "middle"
      add(
        #"<text class="tick" x="\#(f(position))" y="\#(f(baseY + 14))" text-anchor="\#(anchor)">\#(escaped(text))</text>"#
      )
    }
    pin(
      #"<line class="axis" x1="\#(f(left - 0.5))" y1="\#(f(top))" x2="\#(f(left - 0.5))" y2="\#(f(baseY))"/>"#,
      inPlot: false)
    for (position, text) in yTicks {
      add(
        #"<line class="grid" x1="\#(f(left))" y1="\#(f(position))" x2="\#(f(left + plotWidth))" y2="\#(f(position))"/>"#
      )
      pin(#"<text class="tick" x="\#(f(left - 6))" y="\#(f(position + 4))" text-anchor="end">\#(escaped(text))</text>"#)
    }
    pin(
      #"<text class="axis-label" x="12" y="\#(f(top + plotHeight / 2))" text-anchor="middle" transform="rotate(-90 12 \#(f(top + plotHeight / 2)))">\#(escaped(yLabel))</text>"#
    )
    add(
      #"<text class="axis-label" x="\#(f(left + plotWidth / 2))" y="\#(f(height - 6))" text-anchor="middle">\#(escaped(label))</text>"#
    )
  }

  var svg: String {
    let id = "chart-\(name)"
    let range = days.map { #" data-x-from="\#($0.lowerBound)" data-x-to="\#($0.upperBound)""# } ?? ""
    let margin =
      pinned.isEmpty
      ? ""
      : #"<svg class="y-axis" aria-hidden="true" focusable="false" viewBox="0 0 \#(f(left)) \#(f(height))" xmlns="http://www.w3.org/2000/svg">"#
        // The ground stops at the time axis: a first date's label, half in the margin, shows.
        + #"<rect class="chart-ground" x="0" y="0" width="\#(f(left))" height="\#(f(height - bottom + 1))"/>"#
        + pinned.joined(separator: "\n") + "</svg>\n"
    let keys =
      legend.isEmpty
      ? "" : "<ul class=\"legend\">" + legend.map { "<li>\($0.swatch) \(escaped($0.text))</li>" }.joined() + "</ul>\n"
    return """
      <figure class="chart\(opensAtStart ? " opens-at-start" : "")">
      <div class="plot">
      <svg role="img" data-chart="\(name)"\(range) aria-labelledby="\(id)-title \(id)-desc" aria-label="\(escaped(title)): \(escaped(summary))" viewBox="0 0 \(f(width)) \(f(height))" width="100%" preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">
      <title id="\(id)-title">\(escaped(title))</title>
      <desc id="\(id)-desc">\(escaped(summary))</desc>
      \(body)</svg>
      </div>
      \(margin)\(keys)<figcaption>\(escaped(summary))</figcaption>
      </figure>
      """
  }
}

/// A number for SVG coordinates: one decimal is finer than a printed dot.
func f(_ value: Double) -> String { String(format: "%.1f", value) }

/// Text for HTML element content and attribute values.
func escaped(_ text: String) -> String { HTMLText.escape(text) }

/// Ticks for a value axis: about `count` round steps from 0 (or the low end) to past `high`.
func niceTicks(low: Double, high: Double, count: Int = 4) -> [Double] {
  // Whatever the data, an axis of a few ticks: never a loop over a span no chart has.
  guard low.isFinite, high.isFinite, high - low < 1e15 else { return [0, 1] }
  let span = max(high - low, 1e-9)
  let raw = span / Double(count)
  let magnitude = pow(10, floor(log10(raw)))
  let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
  var ticks: [Double] = []
  var value = (low / step).rounded(.down) * step
  while value <= high + step * 0.001 && ticks.count < 50 {
    ticks.append(value)
    value += step
  }
  if let last = ticks.last, last < high { ticks.append(last + step) }
  return ticks
}
