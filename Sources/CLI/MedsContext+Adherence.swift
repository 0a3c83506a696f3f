import CLIApp
import CLICore
import Core
import Foundation
import Records

/// `vital meds stats`: adherence of scheduled doses, and doses taken as needed apart.
extension MedsContext {
  func json(_ a: Adherence) -> JSON {
    let scheduled: [JSON] = a.scheduled.map { s in
      .object([
        ("name", .string(s.name)), ("as_needed", .bool(false)), ("scheduled", .int(s.counts.scheduled)),
        ("taken", .int(s.counts.taken)), ("skipped", .int(s.counts.skipped)), ("missed", .int(s.counts.missed)),
        ("open", .int(s.counts.open)),
        // A percent, like every proportion Vital prints (goals' `percent` too).
        ("adherence", s.counts.percent.map(JSON.double) ?? .null),
      ])
    }
    let asNeeded: [JSON] = a.asNeeded.map { s in
      .object([
        ("name", .string(s.name)), ("as_needed", .bool(true)), ("taken", .int(s.taken)),
        ("over_limit", .int(s.overLimit)),
        (
          "per_day",
          .array(s.perDay.map { .object([("date", .string($0.date.description)), ("count", .int($0.count))]) })
        ),
      ])
    }
    return .array(scheduled + asNeeded)
  }

  func text(_ a: Adherence, days: Int) -> String {
    guard !a.scheduled.isEmpty || !a.asNeeded.isEmpty else {
      return "No medications; add one with 'vital meds add NAME --at 08:00'."
    }
    let human = HumanText(now: app.now, calendar: app.calendar)
    var lines = ["last \(HumanText.count(days, "day")), \(human.day(a.first)) to \(human.day(a.last))"]
    if !a.scheduled.isEmpty {
      var table = TextTable(["medication", "scheduled", "taken", "skipped", "missed", "open", "adherence"])
      func row(_ name: String, _ c: Adherence.Counts) -> [String] {
        [
          name, "\(c.scheduled)", "\(c.taken)", "\(c.skipped)", "\(c.missed)", "\(c.open)",
          c.percent.map { String(format: "%.0f%%", $0) } ?? "-",
        ]
      }
      for s in a.scheduled { table.add(row(s.name, s.counts)) }
      if a.scheduled.count > 1 { table.add(row("all scheduled", a.total)) }
      lines.append(table.text)
    }
    if !a.asNeeded.isEmpty {
      lines += ["", "As needed (not part of adherence):"]
      for s in a.asNeeded {
        let days = s.perDay.filter { $0.count > 0 }
        var line =
          "  \(s.name): \(HumanText.count(s.taken, "dose")) on \(HumanText.count(days.count, "day"))"
          + (days.isEmpty ? "" : ", at most \(s.perDay.map(\.count).max() ?? 0) a day")
        if s.overLimit > 0 { line += ", \(s.overLimit) over the limit" }
        lines.append(line)
      }
    }
    return lines.joined(separator: "\n")
  }
}
