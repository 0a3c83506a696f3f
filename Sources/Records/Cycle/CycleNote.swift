import Core
import Foundation

/// What a person noted about one day of their cycle. Every field is optional; a field set again
/// replaces what was there.
public struct CycleNote: Equatable, Sendable {
  public enum Flow: String, CaseIterable, Sendable {
    case spotting, light, medium, heavy

    /// Spotting is noted but neither starts nor extends a period.
    public var isBleeding: Bool { self != .spotting }
  }

  /// Cervical mucus, from least to most fertile quality.
  public enum Mucus: String, CaseIterable, Sendable {
    case dry, moist, sticky, creamy, eggwhite

    /// The order the sympto-thermal rules compare (0 dry … 4 egg-white).
    public var quality: Int { Self.allCases.firstIndex(of: self)! }
  }

  public enum Sex: String, CaseIterable, Sendable { case protected, unprotected }

  public var date: LocalDate
  public var flow: Flow?
  /// Waking temperature in °C.
  public var temperature: Double?
  /// When it was taken, `HH:MM`.
  public var temperatureTime: String?
  /// Left out of the evaluation (fever, a late night, a different thermometer).
  public var temperatureExcluded = false
  public var mucus: Mucus?
  public var pain: [String] = []
  public var mood: [String] = []
  public var sex: Sex?
  public var text: String?

  public init(date: LocalDate) { self.date = date }

  /// The range a waking temperature can take; anything outside is a typo or another unit.
  public static let temperatures = 34.0...43.0

  public var isEmpty: Bool {
    flow == nil && temperature == nil && mucus == nil && pain.isEmpty && mood.isEmpty && sex == nil && text == nil
  }

  /// The record id: the day itself, so that two devices noting the same day write one record.
  public var id: String { date.description }
}

/// The fields `vital cycle note --clear` names.
public enum CycleNoteField: String, CaseIterable, Sendable {
  case flow, temperature, mucus, pain, mood, sex, text
}

/// Fields to set on a day's note: nil leaves a field as it is.
public struct CycleNoteChange: Sendable {
  public var flow: CycleNote.Flow?
  public var temperature: Double?
  public var temperatureTime: String?
  public var excludeTemperature = false
  public var mucus: CycleNote.Mucus?
  public var pain: [String]?
  public var mood: [String]?
  public var sex: CycleNote.Sex?
  public var text: String?
  public var clear: Set<CycleNoteField> = []

  public init() {}

  public var isEmpty: Bool {
    flow == nil && temperature == nil && temperatureTime == nil && !excludeTemperature && mucus == nil
      && pain == nil && mood == nil && sex == nil && text == nil && clear.isEmpty
  }

  /// `note` with this change applied; what it cannot hold is refused.
  public func applied(to note: CycleNote) throws -> CycleNote {
    var note = note
    for field in clear {
      switch field {
      case .flow: note.flow = nil
      case .temperature:
        note.temperature = nil
        note.temperatureTime = nil
        note.temperatureExcluded = false
      case .mucus: note.mucus = nil
      case .pain: note.pain = []
      case .mood: note.mood = []
      case .sex: note.sex = nil
      case .text: note.text = nil
      }
    }
    if let flow { note.flow = flow }
    if let temperature {
      guard temperature.isFinite, CycleNote.temperatures.contains(temperature) else {
        throw CycleError.badTemperature
      }
      note.temperature = (temperature * 100).rounded() / 100
      // A new measurement counts unless this same change leaves it out.
      note.temperatureExcluded = false
    }
    if let temperatureTime {
      guard Self.isTime(temperatureTime) else { throw CycleError.badTime(temperatureTime) }
      note.temperatureTime = temperatureTime
    }
    if excludeTemperature { note.temperatureExcluded = true }
    if (temperatureTime != nil || excludeTemperature) && note.temperature == nil {
      throw CycleError.noTemperature(note.date.description)
    }
    if let mucus { note.mucus = mucus }
    if let pain { note.pain = try Self.tags(pain) }
    if let mood { note.mood = try Self.tags(mood) }
    if let sex { note.sex = sex }
    if let text {
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      note.text = trimmed.isEmpty ? nil : trimmed
    }
    return note
  }

  /// Tags trimmed, empty ones dropped, each once in the order given.
  static func tags(_ values: [String]) throws -> [String] {
    var seen = Set<String>()
    var tags: [String] = []
    for value in values {
      let tag = value.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !tag.isEmpty else { continue }
      guard tag.utf8.count <= 100 else { throw CycleError.longTag }
      if seen.insert(tag).inserted { tags.append(tag) }
    }
    return tags
  }

  package static func isTime(_ text: String) -> Bool {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return false }
    return (0..<24).contains(hour) && (0..<60).contains(minute)
  }
}
