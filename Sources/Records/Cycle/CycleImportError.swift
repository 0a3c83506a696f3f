/// Why a file from another tracker was refused. Nothing of it was written.
public enum CycleImportError: Error, Equatable, CustomStringConvertible {
  case unknownFormat
  case csv(CSV.ParseError)
  case header(String)
  case line(Int, String)
  case json(String)
  case element(Int, String)
  case tooLarge(Int)

  public var description: String {
    let tail = "; nothing was imported"
    switch self {
    case .unknownFormat:
      return
        "not a drip CSV export (a header starting with 'date') or a Clue JSON export (an array of {\"date\",\"type\",\"value\"})"
        + tail
    case .csv(let error): return "\(error)\(tail)"
    case .header(let problem): return "line 1: \(problem)\(tail)"
    case .line(let line, let problem): return "line \(line): \(problem)\(tail)"
    case .json(let problem): return "the Clue file is not valid JSON (\(problem))\(tail)"
    case .element(let n, let problem): return "element \(n): \(problem)\(tail)"
    case .tooLarge(let limit): return "a drip file is read whole, and this one is over \(limit >> 20) MiB\(tail)"
    }
  }
}
