import Core
import Foundation
import Records

/// Writes calendar items as an RFC 5545 calendar: CRLF line ends, lines folded at 75 octets
/// (never inside a UTF-8 sequence), one-off times in UTC, one VALARM per alarm; a series in
/// its zone's wall-clock time with that zone's VTIMEZONE.
public enum ICalendar {
  public static func document(_ items: [CalendarItem], stamp: Date, product: String) -> String {
    document(CalendarFeed(series: [], items: items), stamp: stamp, product: product)
  }

  public static func document(_ feed: CalendarFeed, stamp: Date, product: String) -> String {
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Vital//\(product)//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
    ]
    let zones = Dictionary(grouping: feed.series, by: \.zone).mapValues { $0.map(\.first.year).min()! }
    for (zone, year) in zones.sorted(by: { $0.key < $1.key }) {
      if let timeZone = TimeZone(identifier: zone) { lines += VTimeZone.lines(timeZone, from: year) }
    }
    for series in feed.series { lines += self.series(series, stamp: stamp) }
    for item in feed.items {
      lines += ["BEGIN:VEVENT", "UID:\(item.uid)@vital.invalid", "DTSTAMP:\(utc(stamp))"]
      switch item.when {
      case .instant(let start, let duration):
        lines += ["DTSTART:\(utc(start))", "DTEND:\(utc(start.addingTimeInterval(duration)))"]
      case .day(let day):
        lines += [
          "DTSTART;VALUE=DATE:\(compact(day))", "DTEND;VALUE=DATE:\(compact(day.adding(days: 1)))",
          "TRANSP:TRANSPARENT",
        ]
      }
      lines += ["SUMMARY:\(text(item.title))", "DESCRIPTION:\(text(item.body))"]
      if let location = item.location { lines.append("LOCATION:\(text(location))") }
      lines.append("CATEGORIES:\(item.source.rawValue.uppercased())")
      for alarm in item.alarms {
        lines += [
          "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(text(item.title))", "TRIGGER:\(alarm.trigger)", "END:VALARM",
        ]
      }
      lines.append("END:VEVENT")
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined()
  }

  static func series(_ s: CalendarSeries, stamp: Date) -> [String] {
    let zone = "TZID=\(s.zone)"
    var rule =
      s.weekdays.map { days in
        "FREQ=WEEKLY;BYDAY="
          + days.sorted().map { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][$0.rawValue - 1] }
          .joined(separator: ",")
      } ?? "FREQ=DAILY"
    // UNTIL is inclusive and in UTC when the start has a zone.
    if let end = s.end { rule += ";UNTIL=\(utc(end.addingTimeInterval(-1)))" }
    var lines = [
      "BEGIN:VEVENT", "UID:\(s.uid)@vital.invalid", "DTSTAMP:\(utc(stamp))",
      "DTSTART;\(zone):\(local(s.first, s.time))", "DURATION:PT\(Int(s.duration) / 60)M", "RRULE:\(rule)",
    ]
    let excluded = Array(Set(s.excluded)).sorted()
    for start in stride(from: 0, to: excluded.count, by: 8) {
      let days = excluded[start..<min(start + 8, excluded.count)]
      lines.append("EXDATE;\(zone):" + days.map { local($0, s.time) }.joined(separator: ","))
    }
    lines += [
      "SUMMARY:\(text(s.title))", "DESCRIPTION:\(text(s.body))", "CATEGORIES:\(s.source.rawValue.uppercased())",
      "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(text(s.title))", "TRIGGER:PT0M", "END:VALARM", "END:VEVENT",
    ]
    return lines
  }

  /// `20261201T080000`: a wall-clock time, read in the zone named beside it.
  static func local(_ day: LocalDate, _ time: TimeOfDay) -> String {
    compact(day) + String(format: "T%02d%02d00", time.hour, time.minute)
  }

  /// `20261201T083000Z`.
  static func utc(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
  }

  static func compact(_ day: LocalDate) -> String { String(format: "%04d%02d%02d", day.year, day.month, day.day) }

  /// TEXT values escape backslash, semicolon, comma and line breaks (RFC 5545, 3.3.11).
  static func text(_ value: String) -> String {
    var out = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case ";": out += "\\;"
      case ",": out += "\\,"
      case "\n": out += "\\n"
      case "\r": continue
      case _ where scalar.properties.generalCategory == .control: continue
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Folds a content line into chunks of at most 75 octets, continuation lines starting with
  /// a space, each ending in CRLF.
  static func fold(_ line: String) -> String {
    var out: [UInt8] = []
    var width = 0
    for scalar in line.unicodeScalars {
      let bytes = Array(String(scalar).utf8)
      if width + bytes.count > 75 {
        out += [13, 10, 32]
        width = 1
      }
      out += bytes
      width += bytes.count
    }
    out += [13, 10]
    return String(decoding: out, as: UTF8.self)
  }
}
