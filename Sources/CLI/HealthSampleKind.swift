import ArgumentParser
import Records

/// What `health list --type` takes: a quantity added up by day, a vital, or sleep.
enum HealthSampleKind: ExpressibleByArgument, Equatable {
  case measure(HealthTotals.Measure)
  case vital(VitalKind)
  case sleep

  init?(argument: String) {
    if let m = HealthTotals.Measure(name: argument) {
      self = .measure(m)
    } else if let v = VitalKind(name: argument) {
      self = .vital(v)
    } else if argument.lowercased() == "sleep" {
      self = .sleep
    } else {
      return nil
    }
  }

  static var allValueStrings: [String] {
    HealthTotals.Measure.allCases.map(\.rawValue) + VitalKind.allCases.map(\.rawValue) + ["sleep"]
  }

  /// The sample type it is stored under.
  var type: String {
    switch self {
    case .measure(let m): HealthType.identifier(m)
    case .vital(let v): v.type
    case .sleep: SleepState.type
    }
  }

  /// The short name of a sample's type where it has one: `steps`, `weight`, `sleep`.
  static func name(_ s: HealthStore.Sample) -> String {
    if let name = s.name { return name }
    if s.type == SleepState.type { return "sleep" }
    return VitalKind.allCases.first { $0.type == s.type }?.rawValue ?? s.type
  }

  /// A sample's value as its kind reads it: a number in the kind's unit (a weight in lb as kg),
  /// a blood pressure's two numbers, a sleep state; `unread` when no rule reads it.
  enum Reading: Equatable {
    case number(Double, unit: String)
    case pressure(BloodPressure)
    case sleep(SleepState)
    case unread
  }

  static func reading(_ s: HealthStore.Sample) -> Reading {
    if s.type == SleepState.type {
      let word = s.text ?? s.value.map { String(Int($0)) }
      return word.flatMap(SleepState.init(healthValue:)).map(Reading.sleep) ?? .unread
    }
    if let kind = VitalKind.allCases.first(where: { $0.type == s.type }) {
      if kind == .bloodPressure { return s.text.flatMap(BloodPressure.init(stored:)).map(Reading.pressure) ?? .unread }
      guard let number = s.value, let value = kind.value(number, unit: s.unit) else { return .unread }
      return .number(value, unit: kind.unit)
    }
    guard let value = s.value else { return .unread }
    if let measure = s.name.flatMap(HealthTotals.Measure.init(name:)) { return .number(value, unit: measure.unit) }
    return .number(value, unit: s.unit ?? "")
  }

  /// A sample's value in words: `4200 steps`, `128/82 mmHg`, `63.4 kg`, `deep sleep`.
  static func amount(_ s: HealthStore.Sample) -> String {
    switch reading(s) {
    case .sleep(let state): return state.words
    case .pressure(let reading): return "\(reading) \(BloodPressure.unit)"
    case .number(let value, let unit):
      if let kind = VitalKind.allCases.first(where: { $0.type == s.type }) {
        return "\(VitalsChart.number(value, nil, kind)) \(unit)"
      }
      if let measure = s.name.flatMap(HealthTotals.Measure.init(name:)) { return measure.text(value) }
      return "\(HealthJSON.text(value)) \(unit)"
    case .unread:
      if s.type == SleepState.type { return "(unknown sleep state)" }
      return s.value.map { "\(HealthJSON.text($0)) \(s.unit ?? "") (not read: implausible or unknown unit)" }
        ?? "(invalid value)"
    }
  }
}

extension SleepState {
  /// `in bed`, `deep sleep`, `awake`.
  var words: String {
    switch self {
    case .inBed: "in bed"
    case .asleep: "asleep"
    case .core: "core sleep"
    case .deep: "deep sleep"
    case .rem: "REM sleep"
    case .awake: "awake"
    }
  }
}
