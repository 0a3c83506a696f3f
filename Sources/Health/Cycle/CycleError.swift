/// Why a cycle command was refused. Each message says what to do instead.
public enum CycleError: Error, Equatable, CustomStringConvertible {
  case endBeforeStart(start: String, end: String)
  case inTheFuture(String)
  case overlaps(start: String, end: String?)
  case stillOngoing(start: String)
  case notFound(start: String)
  case noPeriods
  case badCount

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
        "the period from \(start) has no end yet; log its end first with 'vital cycle log --start \(start) --end D'"
    case .notFound(let start):
      return "no period '\(start.prefix(40))' (give its id or its first day); see 'vital cycle list'"
    case .noPeriods:
      return "no periods logged yet; log one with 'vital cycle log --start YYYY-MM-DD'"
    case .badCount:
      return "--count must be between 1 and 24"
    }
  }
}
