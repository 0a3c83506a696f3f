import Core
import Foundation
import Replication
import Storage

/// Results from a spreadsheet: a header `test,value,unit,at` and, in any order after it, `lab`,
/// `range` and `note`. Every row is read as `vital labs add` reads its arguments; the first bad
/// row refuses the whole file. A row the account already has (same test, time and value) is
/// counted, not added again, so a file imported twice adds nothing the second time.
extension LabStore {
  public static let csvHeader = ["test", "value", "unit", "at"]
  static let csvOptional = ["lab", "range", "note"]

  public struct CSVSummary: Equatable, Sendable {
    public var rows = 0
    public var inserted = 0
    public var unchanged = 0
  }

  public enum CSVError: Error, Equatable, CustomStringConvertible {
    case csv(CSV.ParseError)
    case header(String)
    case row(line: Int, String)

    public var description: String {
      switch self {
      case .csv(let error): "\(error); nothing was imported"
      case .header(let problem):
        "line 1: \(problem); the header is test,value,unit,at and then any of lab,range,note; nothing was imported"
      case .row(let line, let problem): "line \(line): \(problem); nothing was imported"
      }
    }
  }

  /// `force` keeps values outside the plausible ranges, as `labs add --force` does; a row that
  /// is a figure of `donations` (`DonationStore.measured`) is already here too.
  public func importCSV(_ data: Data, force: Bool = false, donations: [Donation] = []) throws -> CSVSummary {
    var pieces: [[CSV.Record]]
    do {
      pieces = try CSV.parse(data, pieces: ProcessInfo.processInfo.activeProcessorCount)
    } catch let error as CSV.ParseError {
      throw CSVError.csv(error)
    }
    guard let first = pieces.firstIndex(where: { !$0.isEmpty }) else { throw CSVError.header("the file is empty") }
    let header = pieces[first].removeFirst()
    let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard Array(names.prefix(4)) == Self.csvHeader else {
      throw CSVError.header("the first four columns are not test,value,unit,at")
    }
    for name in names.dropFirst(4) where !Self.csvOptional.contains(name) || names.filter({ $0 == name }).count > 1 {
      throw CSVError.header("column '\(name.prefix(20))' is not one Vital reads, or comes twice")
    }
    let column = { (name: String) in names.firstIndex(of: name) }
    let (lab, range, note) = (column("lab"), column("range"), column("note"))
    let (catalogue, calendar, latest) = (catalogue, calendar, now.addingTimeInterval(60))
    // The pieces are read at once, one per core.
    let results = try pieces.concurrentMap { piece in
      // Results come many to a day: each time is read once.
      var times: [String: Date] = [:]
      return try piece.filter { $0.fields != [""] }.map { record in
        guard record.fields.count == names.count else {
          throw CSVError.row(line: record.line, "\(record.fields.count) columns where the header has \(names.count)")
        }
        let text = record.fields[3]
        let at: Date
        if let known = times[text] {
          at = known
        } else {
          do { at = try Self.instant(text, calendar: calendar) } catch let error as LabError {
            throw CSVError.row(line: record.line, error.description)
          }
          times[text] = at
        }
        // A result is kept once measured (a minute's grace for clocks).
        if at > latest {
          throw CSVError.row(line: record.line, LabError.future(String(text.prefix(30))).description)
        }
        return try Self.result(record, at: at, lab: lab, range: range, note: note, catalogue, force: force)
      }
    }
    return try write(Array(results.joined()), donations: donations)
  }

  private static func result(
    _ record: CSV.Record, at: Date, lab: Int?, range: Int?, note: Int?, _ catalogue: LabCatalogue, force: Bool
  ) throws -> LabResult {
    let field = { (i: Int?) in i.map { record.fields[$0] }.flatMap { $0.isEmpty ? nil : $0 } }
    do {
      let entry = LabEntry(
        test: record.fields[0], value: record.fields[1], unit: field(2),
        at: at, lab: field(lab), range: field(range),
        note: field(note))
      return try entry.result(id: UUID().uuidString.lowercased(), catalogue: catalogue, force: force)
    } catch LabError.unitNeeded(let test, let units) {
      throw CSVError.row(
        line: record.line,
        "\(test) comes in several units: give one of \(units.joined(separator: ", ")) in its unit column")
    } catch LabError.badRange(let text) {
      throw CSVError.row(line: record.line, "range '\(text)' is not a range: give LOW-HIGH (3.5-5.1), <HIGH or >LOW")
    } catch let error as LabError {
      throw CSVError.row(line: record.line, error.description)
    }
  }

  private func write(_ results: [LabResult], donations: [Donation]) throws -> CSVSummary {
    var summary = CSVSummary(rows: results.count)
    try db.transaction { db in
      var known = Set(
        donations.flatMap { Self.results(of: $0) }.map {
          Self.key($0.test, ISO8601.string(from: $0.at), $0.value, $0.second)
        })
      try db.forEachRow("SELECT test, at, value, second FROM lab_result WHERE account_id = ?", account.id) { row in
        known.insert(
          Self.key(
            try row.get(0, as: String.self), try row.get(1, as: String.self), try row.get(2, as: Double.self),
            try row.get(3, as: Double?.self)))
      }
      var new: [(id: String, values: [DatabaseValue])] = []
      new.reserveCapacity(results.count)
      for r in results {
        guard known.insert(Self.key(r.test, ISO8601.string(from: r.at), r.value, r.second)).inserted else {
          summary.unchanged += 1
          continue
        }
        new.append((r.id, LabResult.shape.values(r, LabResult.synced)))
      }
      // In id order each insert lands where the last one did (ids are random UUIDs).
      new.sort { $0.id < $1.id }
      summary.inserted = try replica.insertNew(.labResult, new)
    }
    return summary
  }

  private static func key(_ test: String, _ at: String, _ value: Double, _ second: Double?) -> String {
    "\(test)|\(at)|\(value)|\(second.map { "\($0)" } ?? "")"
  }

  /// `2026-11-20` (that day's start), `2026-11-20 08:10` or `2026-11-20T08:10` (local time),
  /// or with a UTC offset.
  static func instant(_ text: String, calendar: Calendar) throws -> Date {
    let text = text.withoutSpaces
    if text.count == 10, let day = LocalDate(text) { return day.start(in: calendar) }
    let iso =
      text.count > 10 && text[text.index(text.startIndex, offsetBy: 10)] == " "
      ? text.prefix(10) + "T" + text.dropFirst(11) : Substring(text)
    guard let fields = ISO8601.fields(from: String(iso)) else {
      throw LabError.badTime(String(text.prefix(30)))
    }
    if let offset = fields.offset { return ISO8601.date(from: fields, offset: offset) }
    let components = DateComponents(
      year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
      second: fields.second)
    guard let date = calendar.date(from: components),
      calendar.dateComponents([.hour, .minute], from: date) == DateComponents(hour: fields.hour, minute: fields.minute)
    else { throw LabError.badTime(String(text.prefix(30))) }
    return date
  }
}
