import CLIApp
import CLICore
import Foundation
import Records

/// `vital health trend` for people: a row per period with its total, a mark where the goal was
/// met, and a bar as wide as the terminal allows, the goal drawn as `|` where the bar falls short.
/// A period without data shows `–`, never 0, and the last day with data is named.
struct TrendChart {
  let trend: Trend
  let width: Int
  let colour: Bool
  let human: HumanText

  var text: String {
    let totals = trend.rows.map { $0.total.map(amount) ?? "–" }
    let labelWidth = trend.rows.map(\.label.count).max() ?? 10
    let amountWidth = totals.map(\.count).max() ?? 1
    let barWidth = max(10, width - labelWidth - amountWidth - 6)
    let scale = trend.rows.map { max($0.total ?? 0, $0.total == nil ? 0 : $0.goal ?? 0) }.max() ?? 0
    var lines: [String] = []
    for (row, total) in zip(trend.rows, totals) {
      guard let value = row.total else {
        let label = row.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
        lines.append("\(label)  \(String(repeating: " ", count: amountWidth - 1))–    no data")
        continue
      }
      let filled = scale > 0 ? max(0, min(barWidth, (value / scale * Double(barWidth)).saturatingInt)) : 0
      var bar = String(repeating: "█", count: filled)
      if let goal = row.goal, goal > value, scale > 0 {
        let at = max(0, min(barWidth - 1, (goal / scale * Double(barWidth)).rounded(.down).saturatingInt))
        if at > filled { bar += String(repeating: " ", count: at - filled) + "|" }
      }
      if colour, row.met == true { bar = "\u{1B}[32m" + bar + "\u{1B}[0m" }
      let mark = row.met == true ? "✓" : row.met == false ? "·" : " "
      let label = row.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
      lines.append("\(label)  \(String(repeating: " ", count: amountWidth - total.count))\(total) \(mark)  \(bar)")
    }
    let goals = trend.rows.filter { $0.met != nil }
    if trend.rows.allSatisfy({ $0.total == nil }) {
      lines.append(
        trend.lastData.map { "no data in these days; last data \(human.day($0))" }
          ?? "no data yet: import an export with 'vital health import FILE' or add a sample with 'vital health add'")
      return lines.joined(separator: "\n")
    }
    if !goals.isEmpty {
      let met = goals.filter { $0.met == true }.count
      lines.append("goal met in \(met) of \(goals.count) \(trend.rows.count == 1 ? "period" : "periods") (✓)")
    } else {
      switch trend.measure {
      case .steps, .distance: lines.append("no goal: add one with 'vital goals add' or pass --goal")
      case .energy, .exercise: lines.append("no goal: no Apple Watch ring goal on these days; pass --goal")
      }
    }
    if let last = trend.lastData, let through = trend.rows.last?.through, last < through {
      lines.append("last data \(human.day(last)): the days after it have no data (not 0)")
    }
    return lines.joined(separator: "\n")
  }

  func amount(_ value: Double) -> String {
    switch trend.measure {
    case .steps: return value.wholeText
    case .distance: return String(format: "%.2f km", value / 1000)
    case .energy: return String(format: "%.0f kcal", value)
    case .exercise: return String(format: "%.0f min", value)
    }
  }
}
