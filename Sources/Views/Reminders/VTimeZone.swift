import Foundation
import Records

/// A zone's clock changes as an RFC 5545 VTIMEZONE, read from the system's zone data. Changes
/// that follow a yearly rule (last Sunday of March at 02:00) become an open `RRULE`, so events
/// that repeat for years keep their times; irregular ones are listed as they come.
enum VTimeZone {
  /// The block for `zone`, from the year before `year` on.
  static func lines(_ zone: TimeZone, from year: Int) -> [String] {
    let changes = transitions(zone, from: year - 1, to: year + sampleYears)
    var lines = ["BEGIN:VTIMEZONE", "TZID:\(zone.identifier)"]
    if changes.isEmpty {
      let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0))
      lines += [
        "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:\(text(offset))", "TZOFFSETTO:\(text(offset))",
        "END:STANDARD",
      ]
    } else {
      // The offset before the first change, so times before it are placed too.
      let before = changes[0]
      lines += [
        "BEGIN:STANDARD", "DTSTART:\(wall(before.at.addingTimeInterval(-366 * 86_400), before.from))",
        "TZOFFSETFROM:\(text(before.from))", "TZOFFSETTO:\(text(before.from))", "END:STANDARD",
      ]
      let kinds = Dictionary(grouping: changes) { Kind(daylight: $0.daylight, from: $0.from, to: $0.to) }
      for (kind, group) in kinds.sorted(by: { $0.value[0].at < $1.value[0].at }) {
        lines += component(kind, group, lastYear: year + sampleYears - 1)
      }
    }
    lines.append("END:VTIMEZONE")
    return lines
  }

  /// Years of zone data looked at to find the yearly rules.
  static let sampleYears = 12

  struct Change {
    let at: Date
    let from: Int
    let to: Int
    let daylight: Bool
  }

  struct Kind: Hashable {
    let daylight: Bool
    let from: Int
    let to: Int
  }

  static func transitions(_ zone: TimeZone, from: Int, to: Int) -> [Change] {
    var t = utcCalendar.date(from: DateComponents(year: from, month: 1, day: 1))!
    let stop = utcCalendar.date(from: DateComponents(year: to, month: 1, day: 1))!
    var result: [Change] = []
    while let next = zone.nextDaylightSavingTimeTransition(after: t), next < stop {
      let before = zone.secondsFromGMT(for: next.addingTimeInterval(-1))
      let after = zone.secondsFromGMT(for: next)
      if before != after {
        result.append(Change(at: next, from: before, to: after, daylight: zone.isDaylightSavingTime(for: next)))
      }
      t = next
    }
    return result
  }

  /// One observance: a yearly rule if every year from the first has one change on the same
  /// weekday of the same month at the same time, else each change as an `RDATE`.
  static func component(_ kind: Kind, _ group: [Change], lastYear: Int) -> [String] {
    let name = kind.daylight ? "DAYLIGHT" : "STANDARD"
    let walls = group.map {
      utcCalendar.dateComponents(in: utcTimeZone, from: $0.at.addingTimeInterval(Double(kind.from)))
    }
    var lines = [
      "BEGIN:\(name)", "DTSTART:\(wall(group[0].at, kind.from))", "TZOFFSETFROM:\(text(kind.from))",
      "TZOFFSETTO:\(text(kind.to))",
    ]
    if let rule = yearlyRule(walls) {
      let ended = walls.last!.year! < lastYear
      lines.append("RRULE:FREQ=YEARLY;\(rule)" + (ended ? ";UNTIL=\(ICalendar.utc(group.last!.at))" : ""))
    } else {
      lines += group.dropFirst().map { "RDATE:\(wall($0.at, kind.from))" }
    }
    lines.append("END:\(name)")
    return lines
  }

  static func yearlyRule(_ walls: [DateComponents]) -> String? {
    guard let first = walls.first, let month = first.month, let weekday = first.weekday else { return nil }
    let years = walls.map { $0.year! }
    guard years == Array(years[0]..<(years[0] + years.count)) else { return nil }
    let sameTime = walls.allSatisfy {
      $0.month == month && $0.weekday == weekday && $0.hour == first.hour && $0.minute == first.minute
        && $0.second == first.second
    }
    guard sameTime else { return nil }
    let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][weekday - 1]
    let nth = Set(walls.map { ($0.day! - 1) / 7 + 1 })
    let last = walls.allSatisfy { wall in
      let length = utcCalendar.range(of: .day, in: .month, for: utcCalendar.date(from: wall)!)!.count
      return wall.day! + 7 > length
    }
    if last { return "BYMONTH=\(month);BYDAY=-1\(days)" }
    if nth.count == 1 { return "BYMONTH=\(month);BYDAY=\(nth.first!)\(days)" }
    return nil
  }

  /// The wall-clock time just before the change, as the observance's `DTSTART`.
  static func wall(_ at: Date, _ offset: Int) -> String {
    let c = utcCalendar.dateComponents(in: utcTimeZone, from: at.addingTimeInterval(Double(offset)))
    return String(format: "%04d%02d%02dT%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
  }

  /// `+0100`, `-0430`, `+053328` for the odd historical offset.
  static func text(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let s = abs(seconds)
    let base = sign + String(format: "%02d%02d", s / 3600, s / 60 % 60)
    return s % 60 == 0 ? base : base + String(format: "%02d", s % 60)
  }

  static let utcTimeZone = TimeZone(identifier: "UTC")!
  static let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = utcTimeZone
    return calendar
  }()
}
