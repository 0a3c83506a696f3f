import Core
import Foundation

/// drip's CSV export (one row a day; columns named after its database schema, `temperature.value`,
/// `bleeding.value`, `mucus.feeling`, ...) read into daily notes. Pure.
///
/// What maps where is in docs/nfp.md, "Imports"; the cervix columns have no place in Vital and
/// are read (checked) but not kept.
enum DripCSV {
  /// Every column drip writes, in its order. A file may hold fewer; none other.
  static let columns = [
    "date", "temperature.value", "temperature.exclude", "temperature.time", "temperature.note", "isCycleStart",
    "bleeding.value", "bleeding.exclude", "mucus.feeling", "mucus.texture", "mucus.value", "mucus.exclude",
    "cervix.opening", "cervix.firmness", "cervix.position", "cervix.exclude", "note.value", "desire.value",
    "sex.solo", "sex.partner", "sex.condom", "sex.pill", "sex.iud", "sex.patch", "sex.ring", "sex.implant",
    "sex.diaphragm", "sex.none", "sex.other", "sex.note", "pain.cramps", "pain.ovulationPain", "pain.headache",
    "pain.backache", "pain.nausea", "pain.tenderBreasts", "pain.migraine", "pain.other", "pain.note", "mood.happy",
    "mood.sad", "mood.stressed", "mood.balanced", "mood.fine", "mood.anxious", "mood.energetic", "mood.fatigue",
    "mood.angry", "mood.other", "mood.note",
  ]

  static let pains = [
    ("pain.cramps", "cramps"), ("pain.ovulationPain", "ovulation pain"), ("pain.headache", "headache"),
    ("pain.backache", "backache"), ("pain.nausea", "nausea"), ("pain.tenderBreasts", "tender breasts"),
    ("pain.migraine", "migraine"),
  ]
  static let moods = [
    "happy", "sad", "stressed", "balanced", "fine", "anxious", "energetic", "fatigue", "angry",
  ]
  static let contraception = [
    "sex.condom", "sex.pill", "sex.iud", "sex.patch", "sex.ring", "sex.implant", "sex.diaphragm",
  ]

  static func looksLike(_ data: Data) -> Bool {
    let head = String(decoding: data.prefix(64), as: UTF8.self)
    return head.hasPrefix("date,") || head.hasPrefix("\u{FEFF}date,") || head.hasPrefix("\"date\",")
  }

  /// The notes of the file, with flow whose `bleeding.exclude` is true marked so that it makes
  /// no period.
  static func read(_ data: Data) throws -> [(note: CycleNote, flowExcluded: Bool, line: Int)] {
    let records: [CSV.Record]
    do { records = try CSV.parse(data) } catch let error as CSV.ParseError { throw CycleImportError.csv(error) }
    guard let header = records.first?.fields, header.first == "date" else { throw CycleImportError.unknownFormat }
    for name in header where !columns.contains(name) {
      throw CycleImportError.header(
        "unknown column '\(name.prefix(40))'; drip's columns are \(columns.joined(separator: ","))")
    }
    guard Set(header).count == header.count else { throw CycleImportError.header("a column appears twice") }
    var days: [(CycleNote, Bool, Int)] = []
    var seen: [LocalDate: Int] = [:]
    for record in records.dropFirst() {
      if record.fields == [""] { continue }
      guard record.fields.count == header.count else {
        throw CycleImportError.line(record.line, "expected \(header.count) fields, found \(record.fields.count)")
      }
      let row = Row(line: record.line, values: Dictionary(uniqueKeysWithValues: zip(header, record.fields)))
      let (note, flowExcluded) = try row.note()
      if let first = seen.updateValue(record.line, forKey: note.date) {
        throw CycleImportError.line(record.line, "\(note.date) appears again (first on line \(first))")
      }
      days.append((note, flowExcluded, record.line))
    }
    return days
  }

  struct Row {
    let line: Int
    let values: [String: String]

    func text(_ column: String) -> String? {
      guard let value = values[column]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
      return value
    }

    func bool(_ column: String) throws -> Bool {
      guard let value = text(column) else { return false }
      switch value.lowercased() {
      case "true": return true
      case "false": return false
      default: throw CycleImportError.line(line, "\(column) must be true or false")
      }
    }

    func int(_ column: String, _ range: ClosedRange<Int>) throws -> Int? {
      guard let value = text(column) else { return nil }
      guard let n = Double(value).flatMap({ Int(exactly: $0) }), range.contains(n) else {
        throw CycleImportError.line(
          line, "\(column) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return n
    }

    func note() throws -> (CycleNote, Bool) {
      guard let day = text("date"), let date = LocalDate(day) else {
        throw CycleImportError.line(line, "date must be a day, YYYY-MM-DD")
      }
      var note = CycleNote(date: date)
      if let value = text("temperature.value") {
        guard let t = Double(value), t.isFinite, CycleNote.temperatures.contains(t) else {
          throw CycleImportError.line(line, "temperature.value must be a temperature in °C from 34 to 43")
        }
        note.temperature = (t * 100).rounded() / 100
        note.temperatureExcluded = try bool("temperature.exclude")
        if let time = text("temperature.time") {
          guard CycleNoteChange.isTime(time) else {
            throw CycleImportError.line(line, "temperature.time must be HH:MM")
          }
          note.temperatureTime = time
        }
      }
      var flowExcluded = false
      if let bleeding = try int("bleeding.value", 0...3) {
        note.flow = [CycleNote.Flow.spotting, .light, .medium, .heavy][bleeding]
        flowExcluded = try bool("bleeding.exclude")
      }
      if !(try bool("mucus.exclude")), let quality = try mucusValue() {
        // drip's 0 (dry) and 1 (nothing felt or seen) are both dry here; 2 moist; 3 creamy; 4 egg-white.
        note.mucus = [CycleNote.Mucus.dry, .dry, .moist, .creamy, .eggwhite][quality]
      }
      for column in ["cervix.opening", "cervix.firmness", "cervix.position"] { _ = try int(column, 0...2) }
      note.pain = try DripCSV.pains.filter { try bool($0.0) }.map(\.1)
      if try bool("pain.other") || text("pain.note") != nil { note.pain.append(text("pain.note") ?? "other") }
      note.mood = try DripCSV.moods.filter { try bool("mood.\($0)") }
      if try bool("mood.other") || text("mood.note") != nil { note.mood.append(text("mood.note") ?? "other") }
      if let desire = try int("desire.value", 0...2) {
        note.mood.append(["low", "medium", "high"][desire] + " desire")
      }
      if try bool("sex.partner") {
        if try DripCSV.contraception.contains(where: { try bool($0) }) {
          note.sex = .protected
        } else if try bool("sex.none") {
          note.sex = .unprotected
        }
      }
      let texts = [
        text("note.value"), text("temperature.note").map { "temperature: \($0)" },
        text("sex.note").map { "sex: \($0)" },
      ].compactMap { $0 }
      note.text = texts.isEmpty ? nil : texts.joined(separator: "\n")
      do {
        note.pain = try CycleNoteChange.tags(note.pain)
        note.mood = try CycleNoteChange.tags(note.mood)
      } catch let error as CycleError {
        throw CycleImportError.line(line, error.description)
      }
      return (note, flowExcluded)
    }

    /// drip's combined value when the file has it, else worked out from feeling and texture as
    /// drip does (the higher of the two on the 0-4 scale).
    func mucusValue() throws -> Int? {
      if let value = try int("mucus.value", 0...4) { return value }
      let feeling = try int("mucus.feeling", 0...3)
      let texture = try int("mucus.texture", 0...2)
      guard let feeling, let texture else { return nil }
      return max([0, 1, 2, 4][feeling], [0, 3, 4][texture])
    }
  }
}
