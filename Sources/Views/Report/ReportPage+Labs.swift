import Core
import Foundation
import Records

extension ReportPage {
  /// Each test's latest result with the range it is read against, and a small chart of its
  /// results over five years: the band is the range, a red dot a result outside it.
  static func labs(_ data: ReportData) -> String {
    guard !data.labs.isEmpty else {
      return section(
        "labs", "Lab results",
        empty("No lab results in the five years up to \(HumanText.date(data.to)) ('vital labs add' keeps them)."))
    }
    let sex = data.profile.sex
    let rows = data.labs.map { row -> [String] in
      let r = row.latest
      let test = row.test
      let number = { (v: Double) in HumanText.fixed(v, decimals: test.decimals) }
      let value = number(r.value) + (r.second.map { "/" + number($0) } ?? "") + " " + test.displayUnit
      let flag = r.flag(test, sex: sex).flatMap { $0 == .normal ? nil : $0 }
      let latest =
        escaped(value)
        + (flag.map {
          " <strong class=\"flag\" title=\"\($0 == .high ? "above" : "below") the range\">\($0.rawValue)</strong>"
        }
          ?? "")
      // Each range whole on its line: a phone folds between a pair's two, not inside one.
      let piece = { (low: Double?, high: Double?) in
        "<span class=\"nowrap\">\(escaped(rangeText(low, high, decimals: test.decimals)))</span>"
      }
      let range = r.range(test, sex: sex).map {
        piece($0.low, $0.high) + (r.secondRange(test, sex: sex).map { " / " + piece($0.low, $0.high) } ?? "")
          + ($0.ownRange ? " (laboratory)" : "")
      }
      let source = r.source
      let date = HumanText.date(LocalDate(r.at, in: data.calendar))
      return [
        escaped(test.name) + (source.isEmpty ? "" : "<br><small>\(escaped(source))</small>"),
        "<span class=\"nowrap\">\(latest)</span><br><small class=\"nowrap\">\(escaped(date))</small>",
        range ?? "–", ReportCharts.labTrend(row, sex: sex, calendar: data.calendar),
      ]
    }
    let body =
      table(["Test", "Latest", "Reference range", "Five years"], rows, raw: [0, 1, 2, 3], narrow: true)
      + "\n<p class=\"note\">Ranges are the laboratory's where a result gives one, else a default adult range for "
      + "\(sex.map { "a \($0 == .female ? "woman" : "man")" } ?? "either sex (the profile does not say)")"
      + " (docs/labs.md names each source). H: above the range, L: below.</p>"
    return section("labs", "Lab results", body)
  }

  static func rangeText(_ low: Double?, _ high: Double?, decimals: Int) -> String {
    low == nil && high == nil ? "–" : LabTest.rangeText(low, high, decimals: decimals, inWords: true)
  }
}
