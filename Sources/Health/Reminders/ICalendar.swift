import Core
import Foundation

/// Writes calendar items as an RFC 5545 calendar: CRLF line ends, lines folded at 75 octets
/// (never inside a UTF-8 sequence), times in UTC, one VALARM per alarm.
public enum ICalendar {
  public static func document(_ items: [CalendarItem], stamp: Date, product: String) -> String {
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Vital//\(product)//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
    ]
    for item in items {
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
