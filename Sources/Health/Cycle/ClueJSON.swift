import Core
import Foundation

/// Clue's JSON export read into daily notes. Pure. Clue writes one array of measurements, each
/// `{"date": "YYYY-MM-DD", "type": T, "value": V}`: `period` with `{"option": "light"|"medium"|
/// "heavy"|"very_heavy"}`, `spotting`, `bbt` with `{"celsius": 36.5, "excluded": false}`,
/// `discharge` with `[{"option": "none"|"sticky"|"creamy"|"egg_white"|"atypical"}]`, and tag
/// categories (`pain`, `feelings`, `energy`, `sex_life`, `pms`, `mind`, ...) with lists of
/// `{"option": ...}`. docs/nfp.md, "Imports", says what goes where.
enum ClueJSON {
  static func looksLike(_ data: Data) -> Bool {
    data.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "[")
  }

  static func read(_ data: Data) throws -> [(note: CycleNote, flowExcluded: Bool, line: Int)] {
    let parsed: Any
    do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
      throw CycleImportError.json("it does not parse")
    }
    guard let items = parsed as? [Any] else { throw CycleImportError.unknownFormat }
    var notes: [LocalDate: CycleNote] = [:]
    var firstElement: [LocalDate: Int] = [:]
    var texts: [LocalDate: [String]] = [:]
    for (index, item) in items.enumerated() {
      let n = index + 1
      guard let entry = item as? [String: Any], let day = entry["date"] as? String,
        let date = LocalDate(String(day.prefix(10))), let type = entry["type"] as? String
      else { throw CycleImportError.element(n, "needs a \"date\" (YYYY-MM-DD) and a \"type\"") }
      var note = notes[date] ?? CycleNote(date: date)
      if firstElement[date] == nil { firstElement[date] = n }
      let value = entry["value"]
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
        note.pain += type == "pms" ? ["pms"] : options.map(Self.words)
      case "feelings", "energy", "mind":
        note.mood += options.map(Self.words)
      case "sex_life":
        if options.contains("unprotected_sex") {
          note.sex = .unprotected
        } else if options.contains("protected_sex"), note.sex == nil {
          note.sex = .protected
        }
        texts[date, default: []] += options.filter { !$0.hasSuffix("protected_sex") }.map { "sex: " + Self.words($0) }
      default:
        // Tags Vital has no field for are kept as text rather than lost.
        let words = options.isEmpty ? "" : ": " + options.map(Self.words).joined(separator: ", ")
        texts[date, default: []].append(Self.words(type) + words)
      }
      notes[date] = note
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

  /// The options of a value: `{"option": X}` or a list of them.
  static func options(_ value: Any?) -> [String] {
    if let one = value as? [String: Any], let option = one["option"] as? String { return [option] }
    if let list = value as? [[String: Any]] { return list.compactMap { $0["option"] as? String } }
    return []
  }

  static func words(_ option: String) -> String { option.replacingOccurrences(of: "_", with: " ") }
}
