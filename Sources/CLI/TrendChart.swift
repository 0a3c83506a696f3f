import CLICore
import Foundation
import Health

/// `vital health trend` for people: a row per period with its total, a mark where the goal was
/// met, and a bar as wide as the terminal allows, the goal drawn as `|` where the bar falls short.
struct TrendChart {
  let trend: Trend
  let width: Int
  let colour: Bool

  var text: String {
    let totals = trend.rows.map { amount($0.total) }
    let labelWidth = trend.rows.map(\.label.count).max() ?? 10
    let amountWidth = totals.map(\.count).max() ?? 1
    let barWidth = max(10, width - labelWidth - amountWidth - 6)
    let scale = trend.rows.map { max($0.total, $0.goal ?? 0) }.max() ?? 0
    var lines: [String] = []
    for (row, total) in zip(trend.rows, totals) {
      let filled = scale > 0 ? Int((row.total / scale * Double(barWidth)).rounded()) : 0
      var bar = String(repeating: "█", count: filled)
      if let goal = row.goal, goal > row.total, scale > 0 {
        let at = min(barWidth - 1, Int((goal / scale * Double(barWidth)).rounded(.down)))
        if at > filled { bar += String(repeating: " ", count: at - filled) + "|" }
      }
      if colour, row.met == true { bar = "\u{1B}[32m" + bar + "\u{1B}[0m" }
      let mark = row.met == true ? "✓" : row.met == false ? "·" : " "
      let label = row.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
      lines.append("\(label)  \(String(repeating: " ", count: amountWidth - total.count))\(total) \(mark)  \(bar)")
    }
    let goals = trend.rows.filter { $0.goal != nil }
    if !goals.isEmpty {
      let met = goals.filter { $0.met == true }.count
      lines.append("goal met in \(met) of \(goals.count) \(trend.rows.count == 1 ? "period" : "periods") (✓)")
    } else {
      switch trend.measure {
      case .steps, .distance: lines.append("no goal: add one with 'vital goals add' or pass --goal")
      case .energy, .exercise: lines.append("no goal: no Apple Watch ring goal on these days; pass --goal")
      }
    }
    return lines.joined(separator: "\n")
  }

  func amount(_ value: Double) -> String {
    switch trend.measure {
    case .steps: return String(Int(value.rounded()))
    case .distance: return String(format: "%.2f km", value / 1000)
    case .energy: return String(format: "%.0f kcal", value)
    case .exercise: return String(format: "%.0f min", value)
    }
  }
}
