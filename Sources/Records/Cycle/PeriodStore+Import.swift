import Core
import Foundation
import Replication
import Storage

extension PeriodStore {
  public struct ImportSummary: Equatable, Sendable {
    public enum Format: String, Sendable { case drip, clue }

    public var format: Format
    public var days = 0
    public var added = 0
    public var changed = 0
    public var unchanged = 0
    public var periodsAdded = 0
    public var periodsUnchanged = 0
    /// Periods in the file that overlap one logged differently here: left alone, by first day.
    public var conflicts: [String] = []
  }

  /// Imports daily notes from drip's CSV or Clue's JSON export, in one transaction: each day's
  /// note takes the fields the file gives (the others stay), and flow on consecutive days makes
  /// periods (excluded flow and spotting make none). Importing again changes nothing.
  public func importNotes(_ data: Data) throws -> ImportSummary {
    var rest: Data? = data
    return try importNotes(head: []) { _ in
      defer { rest = nil }
      return rest.map { [UInt8]($0) } ?? []
    }
  }

  /// The same, read from `read` (up to n bytes a call, none at the end): Clue's JSON streams,
  /// a drip CSV is read whole up to `dripLimit`.
  public func importNotes(head: [UInt8], dripLimit: Int = 64 << 20, read: @escaping (Int) throws -> [UInt8]) throws
    -> ImportSummary
  {
    var head = head
    if head.isEmpty { head = try read(1 << 16) }
    let format: ImportSummary.Format
    let rows: [(note: CycleNote, flowExcluded: Bool, line: Int)]
    if ClueJSON.looksLike(head) {
      (format, rows) = (.clue, try ClueJSON.read(head: head, read: read, today: today))
    } else if DripCSV.looksLike(Data(head)) {
      var data = Data(head)
      while data.count <= dripLimit, case let part = try read(1 << 20), !part.isEmpty { data.append(contentsOf: part) }
      guard data.count <= dripLimit else { throw CycleImportError.tooLarge(dripLimit) }
      (format, rows) = (.drip, try DripCSV.read(data))
    } else {
      throw CycleImportError.unknownFormat
    }
    for row in rows where row.note.date > today || row.note.date.year < 1900 {
      let problem =
        row.note.date > today ? "\(row.note.date) is in the future" : "\(row.note.date) is before 1900: check the year"
      throw format == .drip ? CycleImportError.line(row.line, problem) : CycleImportError.element(row.line, problem)
    }
    var summary = ImportSummary(format: format, days: rows.count)
    try db.transaction { _ in
      for row in rows {
        let given = Self.givenFields(row.note)
        guard !given.isEmpty else { continue }
        guard let old = try note(on: row.note.date) else {
          // Only the fields the file gives, as `note` writes them: another device's fields of
          // the same day survive the merge.
          try replica.write(
            .cycleNote, id: row.note.id, given.merging(["date": .text(row.note.date.description)]) { a, _ in a })
          summary.added += 1
          continue
        }
        let before = Self.fields(old)
        let changed = given.filter { before[$0.key] != $0.value }
        if changed.isEmpty {
          summary.unchanged += 1
        } else {
          try replica.write(.cycleNote, id: row.note.id, changed)
          summary.changed += 1
        }
      }
      let bleeding = rows.filter { $0.note.flow?.isBleeding == true && !$0.flowExcluded }.map(\.note.date).sorted()
      var runs: [(LocalDate, LocalDate)] = []
      for day in bleeding {
        if let last = runs.last, last.1.adding(days: 1) == day {
          runs[runs.count - 1].1 = day
        } else {
          runs.append((day, day))
        }
      }
      for (start, end) in runs {
        let existing = try list()
        if existing.contains(where: { $0.start == start && $0.end == end }) {
          summary.periodsUnchanged += 1
        } else if existing.contains(where: { $0.start <= end && start <= ($0.end ?? today) }) {
          summary.conflicts.append(start.description)
        } else {
          do {
            // Named by its first day, as flow noted by hand: the same file imported on two
            // devices makes one period.
            try log(start: start, end: end, id: Self.flowPeriodID(start))
            summary.periodsAdded += 1
          } catch CycleError.stillOngoing, CycleError.overlaps {
            summary.conflicts.append(start.description)
          }
        }
      }
    }
    return summary
  }

  /// The fields an imported note gives: those it has a value for.
  static func givenFields(_ note: CycleNote) -> [String: DatabaseValue] {
    var given: [PartialKeyPath<CycleNote>] = []
    if note.flow != nil { given.append(\.flow) }
    if note.temperature != nil { given += [\.temperature, \.temperatureTime, \.temperatureExcluded] }
    if note.mucus != nil { given.append(\.mucus) }
    if !note.pain.isEmpty { given.append(\.pain) }
    if !note.mood.isEmpty { given.append(\.mood) }
    if note.sex != nil { given.append(\.sex) }
    if note.text != nil { given.append(\.text) }
    return CycleNote.shape.fields(note, of: given)
  }
}
