import Core
import Foundation
import Records

extension ReportCharts {
  /// A test's results as a small line in a table cell: the latest range as a band behind it,
  /// each result a dot, red where it is outside the range it was read against. Its title says
  /// in words what it shows, for a screen reader and a pointer.
  static func labTrend(_ row: ReportData.LabRow, sex: Sex?, calendar: Calendar) -> String {
    let (width, height, pad) = (150.0, 34.0, 4.0)
    let test = row.test
    let results = row.results
    let range = row.latest.range(test, sex: sex)
    let values = results.flatMap { [$0.value] + [$0.second].compactMap { $0 } }
    let second = row.latest.secondRange(test, sex: sex)
    let ends = values + [range?.low, range?.high, second?.low, second?.high].compactMap { $0 }
    var low = ends.min()!
    var high = ends.max()!
    if high - low < 1e-9 { (low, high) = (low - 1, high + 1) }
    let first = results.first!.at.timeIntervalSince1970
    let span = results.last!.at.timeIntervalSince1970 - first
    let x = { (r: LabResult) in
      span > 0 ? pad + (r.at.timeIntervalSince1970 - first) / span * (width - 2 * pad) : width / 2
    }
    let y = { (v: Double) in height - pad - (v - low) / (high - low) * (height - 2 * pad) }
    var marks: [String] = []
    // A pair's two ranges (systolic, diastolic) each get a band; an open end runs to the edge.
    let bands = [range.map { ($0.low, $0.high) }, row.latest.secondRange(test, sex: sex).map { ($0.low, $0.high) }]
    for case (let bandLow, let bandHigh)? in bands where bandLow != nil || bandHigh != nil {
      let top = bandHigh.map(y) ?? 0
      let bottom = bandLow.map(y) ?? height
      marks.append(
        #"<rect class="lab-band" x="0" y="\#(f(top))" width="\#(f(width))" height="\#(f(max(bottom - top, 1)))"/>"#)
    }
    for series: (LabResult) -> Double? in [{ $0.value }, { $0.second }] {
      let points = results.compactMap { r in series(r).map { (x(r), y($0)) } }
      if points.count > 1 {
        marks.append(
          #"<polyline class="lab-line" points="\#(points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " "))"/>"#)
      }
    }
    for r in results {
      let out = r.flag(test, sex: sex).map { $0 != .normal } ?? false
      for v in [r.value] + [r.second].compactMap({ $0 }) {
        marks.append(#"<circle class="lab-point\#(out ? " out" : "")" cx="\#(f(x(r)))" cy="\#(f(y(v)))" r="2.5"/>"#)
      }
    }
    let number = { (v: Double) in HumanText.fixed(v, decimals: test.decimals) }
    let dates = [results.first!, results.last!].map { HumanText.date(LocalDate($0.at, in: calendar)) }
    let outside = results.filter { ($0.flag(test, sex: sex) ?? .normal) != .normal }.count
    let words =
      "\(test.name): \(HumanText.count(results.count, "result"))"
      + (results.count > 1 ? " from \(dates[0]) to \(dates[1])" : " on \(dates[0])")
      + ", \(number(values.min()!)) to \(number(values.max()!)) \(test.displayUnit)"
      + (outside > 0 ? ", \(outside) outside the range" : "")
    return
      #"<svg class="lab-trend" viewBox="0 0 \#(f(width)) \#(f(height))" width="\#(Int(width))" height="\#(Int(height))" role="img" aria-label="\#(escaped(words))"><title>\#(escaped(words))</title>\#(marks.joined())</svg>"#
  }
}
