import CLIApp
import CLICore
import Core
import Records

/// A month laid out like `cal`, weeks starting on Monday, with each day's cycle marks.
enum CalendarGrid {
  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December",
  ]

  static func text(year: Int, month: Int, days: [(LocalDate, [CycleMark])], today: LocalDate, colour: Bool) -> String {
    let title = "\(monthNames[month - 1]) \(year)"
    let width = 7 * 4 - 1
    var lines = [
      String(repeating: " ", count: max(0, (width - title.count) / 2)) + title, " Mo  Tu  We  Th  Fr  Sa  Su",
    ]
    var cells = Array(repeating: "    ", count: days[0].0.weekday - 1)
    for (day, marks) in days {
      let number = day.day < 10 ? " \(day.day)" : "\(day.day)"
      let primary = [CycleMark.period, .ovulation, .predicted, .fertile, .infertile].first(where: marks.contains)
      let letter = primary.map { String($0.letter) } ?? (day == today ? "*" : " ")
      var cell = number + letter
      if colour, let code = primary.map(Self.code) { cell = "\u{1B}[\(code)m\(cell)\u{1B}[0m" }
      cells.append(" " + cell)
    }
    for start in stride(from: 0, to: cells.count, by: 7) {
      lines.append(cells[start..<min(start + 7, cells.count)].joined().trimmingTrailingSpaces())
    }
    lines.append("")
    lines.append("P period  p predicted period  f fertile  O ovulation  i infertile (confirmed)  * today")
    return lines.joined(separator: "\n")
  }

  static func code(_ mark: CycleMark) -> String {
    switch mark {
    case .period: return "1;41"
    case .predicted: return "31"
    case .fertile: return "32"
    case .ovulation: return "1;42"
    case .infertile: return "34"
    }
  }
}

extension String {
  func trimmingTrailingSpaces() -> String {
    var s = self
    while s.hasSuffix(" ") { s.removeLast() }
    return s
  }
}
