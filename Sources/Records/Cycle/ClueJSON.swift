import Core
import Foundation

/// Clue's JSON export read into daily notes. Pure. Clue writes one array of measurements, each
/// `{"date": "YYYY-MM-DD", "type": T, "value": V}`: `period` with `{"option": "light"|"medium"|
/// "heavy"|"very_heavy"}`, `spotting`, `bbt` with `{"celsius": 36.5, "excluded": false}`,
/// `discharge` with `[{"option": "none"|"sticky"|"creamy"|"egg_white"|"atypical"}]`, and tag
/// categories (`pain`, `feelings`, `energy`, `sex_life`, `pms`, `mind`, ...) with lists of
/// `{"option": ...}`. docs/nfp.md, "Imports", says what goes where.
///
/// The file is streamed one element at a time: memory holds a note per day (days lie between
/// 1900 and today), each at most `maxDayBytes` of tags and text, whatever the file's size.
enum ClueJSON {
  /// An element of Clue's export is a few dozen bytes.
  static let maxElement = 1 << 20
  /// A day's tags and text at most, as a note holds them.
  static let maxDayBytes = 1 << 20

  static func looksLike(_ head: [UInt8]) -> Bool {
    head.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "[")
  }

  /// Reads the export from `read` (up to n bytes a call, none at the end), after `head`.
  static func read(head: [UInt8], read: @escaping (Int) throws -> [UInt8], today: LocalDate) throws -> [(
    note: CycleNote, flowExcluded: Bool, line: Int
  )] {
    var first: [UInt8]? = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
    var stream = JSONStream(maxValue: maxElement) { count in
      if let bytes = first {
        first = nil
        return bytes
      }
      return try read(count)
    }
    var notes: [LocalDate: CycleNote] = [:]
    var firstElement: [LocalDate: Int] = [:]
    var texts: [LocalDate: [String]] = [:]
    var sizes: [LocalDate: Int] = [:]
    var n = 0
    do {
      try stream.elements { stream in
        n += 1
        let bytes = try stream.raw()
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
          throw CycleImportError.element(n, "is not JSON Vital can read (is a number too large for a double?)")
        }
        guard let entry = parsed as? [String: Any], let day = entry["date"] as? String,
          let type = entry["type"] as? String
        else { throw CycleImportError.element(n, "needs a \"date\" (YYYY-MM-DD) and a \"type\"") }
        guard let date = LocalDate(String(day.prefix(10))) else {
          throw CycleImportError.element(n, "'\(day.prefix(20))' is not a day (YYYY-MM-DD)")
        }
        guard date <= today else { throw CycleImportError.element(n, "\(date) is in the future") }
        guard date.year >= 1900 else { throw CycleImportError.element(n, "\(date) is before 1900: check the year") }
        sizes[date, default: 0] += bytes.count
        guard sizes[date]! <= maxDayBytes else {
          throw CycleImportError.element(n, "\(date) holds more than \(maxDayBytes >> 20) MiB of measurements")
        }
        var note = notes[date] ?? CycleNote(date: date)
        if firstElement[date] == nil { firstElement[date] = n }
        try apply(type, entry["value"], to: &note, text: &texts[date, default: []], element: n)
        notes[date] = note
      }
      try stream.end()
    } catch JSONStream.Failure.malformed(let at) {
      throw n == 0 && at == 0 ? CycleImportError.unknownFormat : CycleImportError.json("at byte \(at)")
    } catch JSONStream.Failure.tooLarge {
      throw CycleImportError.element(n, "it is over \(maxElement >> 20) MiB")
    }
    return try notes.values.sorted { $0.date < $1.date }.map { note in
      var note = note
      let element = firstElement[note.date]!
      if let text = texts[note.date], !text.isEmpty { note.text = text.joined(separator: "\n") }
      do {
        note.pain = try CycleNoteChange.tags(note.pain)
        note.mood = try CycleNoteChange.tags(note.mood)
      } catch let error as CycleError {
        throw CycleImportError.element(element, error.description)
      }
      return (note, false, element)
    }
  }

  /// One measurement into its day's note.
  static func apply(_ type: String, _ value: Any?, to note: inout CycleNote, text: inout [String], element n: Int)
    throws
  {
    let options = Self.options(value)
    switch type {
    case "period":
      guard let option = options.first,
        let flow = [
          "light": CycleNote.Flow.light, "medium": .medium, "heavy": .heavy,
          "very_heavy": .heavy,
        ][option]
      else { throw CycleImportError.element(n, "a period needs an option: light, medium, heavy or very_heavy") }
      note.flow = flow
    case "spotting":
      if note.flow == nil { note.flow = .spotting }
    case "bbt":
      guard let bbt = value as? [String: Any], let celsius = (bbt["celsius"] as? NSNumber)?.doubleValue,
        CycleNote.temperatures.contains(celsius)
      else { throw CycleImportError.element(n, "bbt needs \"celsius\", a temperature from 34 to 43") }
      note.temperature = (celsius * 100).rounded() / 100
      note.temperatureExcluded = (bbt["excluded"] as? Bool) ?? false
    case "discharge":
      let ranked: [(String, CycleNote.Mucus)] = [
        ("none", .dry), ("sticky", .sticky), ("creamy", .creamy), ("egg_white", .eggwhite),
      ]
      let found = ranked.filter { options.contains($0.0) }.map(\.1)
      if let best = found.max(by: { $0.quality < $1.quality }) { note.mucus = best }
    case "pain", "pms":
      for tag in type == "pms" ? ["pms"] : options.map(Self.words) where !note.pain.contains(tag) {
        note.pain.append(tag)
      }
    case "feelings", "energy", "mind":
      for tag in options.map(Self.words) where !note.mood.contains(tag) { note.mood.append(tag) }
    case "sex_life":
      if options.contains("unprotected_sex") {
        note.sex = .unprotected
      } else if options.contains("protected_sex"), note.sex == nil {
        note.sex = .protected
      }
      text += options.filter { !$0.hasSuffix("protected_sex") }.map { "sex: " + Self.words($0) }
    default:
      // Tags Vital has no field for are kept as text rather than lost.
      let words = options.isEmpty ? "" : ": " + options.map(Self.words).joined(separator: ", ")
      text.append(Self.words(type) + words)
    }
  }

  /// The options of a value: `{"option": X}` or a list of them.
  static func options(_ value: Any?) -> [String] {
    if let one = value as? [String: Any], let option = one["option"] as? String { return [option] }
    if let list = value as? [[String: Any]] { return list.compactMap { $0["option"] as? String } }
    return []
  }

  static func words(_ option: String) -> String { option.replacingOccurrences(of: "_", with: " ") }
}
