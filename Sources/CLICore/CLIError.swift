/// Failures of the command line itself. Each message says what to do next.
public enum CLIError: Error, CustomStringConvertible {
  case homeIsNotAFolder(String)
  case homeNotWritable(String, reason: String)
  case badClock(String)
  case badTimeZone(String)
  case integrityFailed([String])
  case cannotWrite(String, reason: String)
  case futureDate(option: String, value: String)
  case nonexistentLocalTime(String, zone: String)
  case timeMissing(String)
  case needsInput(String)
  case cannotRead(String, reason: String)
  case badOption(String, reason: String)
  case implausibleYear(String)
  /// The database file is there and holds nothing a database begins with: cut short.
  case emptyDatabase(String, sealed: Bool, whole: Bool)

  public var description: String {
    switch self {
    case .homeIsNotAFolder(let path):
      return "the data folder '\(path)' is not a folder; pass --home with a folder path"
    case .homeNotWritable(let path, let reason):
      return "cannot use the data folder '\(path)' (\(reason)); fix its permissions or pass another --home"
    case .badClock(let text):
      return "VITAL_NOW='\(text)' is not an ISO 8601 instant; use a form like 2026-12-01T08:00:00Z"
    case .badTimeZone(let text):
      return "TZ='\(text)' is not a known IANA time zone; use a name like Europe/Berlin"
    case .integrityFailed(let problems):
      return
        "the database failed its integrity check (\(problems.count) problem\(problems.count == 1 ? "" : "s"), first: \(problems.first ?? "")); restore a backup made with 'vital db backup'"
    case .cannotWrite(let path, let reason):
      return "cannot write '\(path)' (\(reason))"
    case .nonexistentLocalTime(let text, let zone):
      return "\(text) does not exist in \(zone) (the clocks skip it); choose another time"
    case .timeMissing(let text):
      return "'\(text)' has no time of day; give one, e.g. '\(text)T09:30' or '\(text) 09:30'"
    case .needsInput(let what):
      return what
    case .cannotRead(let path, let reason):
      return "cannot read '\(path)' (\(reason))"
    case .implausibleYear(let text):
      return "'\(text.prefix(40))' is not a date from 1900 to 2200; check the year"
    case .badOption(let option, let reason):
      return "\(option): \(reason)"
    case .emptyDatabase(let path, let sealed, let whole):
      let held =
        !sealed ? "nothing (0 bytes)" : whole ? "its encryption header but no pages" : "part of its encryption header"
      return
        "the database file '\(path)' holds \(held): it was cut short (a full disk, a copy that stopped?); restore a backup made with 'vital db backup' over it, or move it away to start a new one"
    case .futureDate(let option, let value):
      return "\(option) \(value) is in the future; give a date up to today"
    }
  }
}
