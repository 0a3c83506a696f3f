/// Why a cycle command was refused. Each message says what to do instead.
public enum CycleError: Error, Equatable, CustomStringConvertible {
  case endBeforeStart(start: String, end: String)
  case inTheFuture(String)
  case overlaps(start: String, end: String?)
  case stillOngoing(start: String)
  case notFound(start: String)
  case noPeriods
  case badCount
  case badTemperature
  case badTime(String)
  case noTemperature(String)
  case longTag
  case emptyNote
  case pauseOverlaps(start: String, end: String?)
  case noPause(String)
  case tooFewPeriods

  public var description: String {
    switch self {
    case .endBeforeStart(let start, let end):
      return "the end \(end) is before the start \(start); give an end on or after the start"
    case .inTheFuture(let day):
      return "\(day) is in the future; log a period once it has started"
    case .overlaps(let start, let end):
      return
        "that overlaps the period logged from \(start) to \(end ?? "now (ongoing)"); change that one with 'vital cycle edit \(start) --end D' or delete it first"
    case .stillOngoing(let start):
      return
        "the period from \(start) has no end yet; set its end first with 'vital cycle edit \(start) --end D'"
    case .notFound(let start):
      return "no period '\(start.prefix(40))' (give its id or its first day); see 'vital cycle list'"
    case .noPeriods:
      return "no periods logged yet; add one with 'vital cycle add --start YYYY-MM-DD'"
    case .badCount:
      return "--count must be between 1 and 24"
    case .badTemperature:
      return "a waking temperature is between 34 and 43 °C; give it in °C, like 36.55"
    case .badTime(let text):
      return "'\(text.prefix(20))' is not a time; use HH:MM, like 06:30"
    case .noTemperature(let day):
      return "\(day) has no temperature; give one with --temperature"
    case .longTag:
      return "a pain or mood word holds at most 100 bytes"
    case .emptyNote:
      return "say what to note: --flow, --temperature, --mucus, --pain, --mood, --sex, --text or --clear FIELD"
    case .pauseOverlaps(let start, let end):
      return
        "that overlaps the pause from \(start) to \(end ?? "now (open)"); end or delete that one first ('vital cycle pauses')"
    case .noPause(let start):
      return "no pause starts on \(start); see 'vital cycle pauses'"
    case .tooFewPeriods:
      return "a backtest needs at least 4 logged periods; add earlier ones with 'vital cycle add --start D --end E'"
    }
  }
}
