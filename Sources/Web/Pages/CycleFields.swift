import Core
import Foundation
import Records

/// A day's note on the cycle page, its fields named as `vital cycle note` names its options
/// (pains and moods comma-separated), with what the last submission sent.
struct CycleFields: Equatable {
  var date = ""
  var flow = ""
  var temperature = ""
  var temperatureTime = ""
  var excludeTemperature = false
  var mucus = ""
  var pain = ""
  var mood = ""
  var sex = ""
  var text = ""

  init(_ form: Form) {
    date = form["date"] ?? ""
    flow = form["flow"] ?? ""
    temperature = form["temperature"] ?? ""
    temperatureTime = form["temperature-time"] ?? ""
    excludeTemperature = form["exclude-temperature"] != nil
    mucus = form["mucus"] ?? ""
    pain = form["pain"] ?? ""
    mood = form["mood"] ?? ""
    sex = form["sex"] ?? ""
    text = form["text"] ?? ""
  }

  /// The day's note as stored (an empty form for a day without one).
  init(_ note: CycleNote?, date: LocalDate) {
    self.date = date.description
    guard let note else { return }
    flow = note.flow?.rawValue ?? ""
    temperature = note.temperature.map { String(format: "%.2f", $0) } ?? ""
    temperatureTime = note.temperatureTime ?? ""
    excludeTemperature = note.temperatureExcluded
    mucus = note.mucus?.rawValue ?? ""
    pain = note.pain.joined(separator: ", ")
    mood = note.mood.joined(separator: ", ")
    sex = note.sex?.rawValue ?? ""
    text = note.text ?? ""
  }

  var day: LocalDate? { LocalDate(date) }

  /// What changed from the note as it was shown: a field emptied is cleared, the rest stay.
  func change(from before: CycleFields) throws -> CycleNoteChange {
    var change = CycleNoteChange()
    func trimmed(_ value: String) -> String { value.trimmingCharacters(in: .whitespaces) }
    func tags(_ value: String) -> [String] { value.split(separator: ",").map { trimmed(String($0)) } }
    if flow != before.flow {
      if flow.isEmpty {
        change.clear.insert(.flow)
      } else {
        guard let value = CycleNote.Flow(rawValue: flow) else {
          throw Refusal(field: "flow", "Choose spotting, light, medium or heavy.")
        }
        change.flow = value
      }
    }
    if trimmed(temperature) != trimmed(before.temperature) || excludeTemperature != before.excludeTemperature
      || temperatureTime != before.temperatureTime
    {
      if trimmed(temperature).isEmpty {
        change.clear.insert(.temperature)
      } else {
        let text = trimmed(temperature).replacingOccurrences(of: ",", with: ".")
        guard let value = Double(text) else {
          throw Refusal(field: "temperature", "Write the temperature in °C, like 36.55.")
        }
        // Given again, a temperature counts again unless the box still leaves it out.
        change.temperature = value
        change.excludeTemperature = excludeTemperature
        if !temperatureTime.isEmpty { change.temperatureTime = temperatureTime }
      }
    }
    if mucus != before.mucus {
      if mucus.isEmpty {
        change.clear.insert(.mucus)
      } else {
        guard let value = CycleNote.Mucus(rawValue: mucus) else {
          throw Refusal(field: "mucus", "Choose dry, moist, sticky, creamy or eggwhite.")
        }
        change.mucus = value
      }
    }
    if pain != before.pain { if trimmed(pain).isEmpty { change.clear.insert(.pain) } else { change.pain = tags(pain) } }
    if mood != before.mood { if trimmed(mood).isEmpty { change.clear.insert(.mood) } else { change.mood = tags(mood) } }
    if sex != before.sex {
      if sex.isEmpty {
        change.clear.insert(.sex)
      } else {
        guard let value = CycleNote.Sex(rawValue: sex) else {
          throw Refusal(field: "sex", "Choose protected or unprotected.")
        }
        change.sex = value
      }
    }
    if text != before.text { if trimmed(text).isEmpty { change.clear.insert(.text) } else { change.text = text } }
    return change
  }

  func html(errors: [String: String]) -> HTML {
    func choices(_ values: [String]) -> [(value: String, label: String)] { [("", "—")] + values.map { ($0, $0) } }
    let fields = [
      Field(
        name: "flow", label: "Flow", value: flow, type: "select",
        choices: choices(CycleNote.Flow.allCases.map(\.rawValue))),
      Field(
        name: "temperature", label: "Waking temperature", value: temperature, hint: "°C, like 36.55",
        inputMode: "decimal"),
      Field(name: "temperature-time", label: "Taken at", value: temperatureTime, type: "time"),
      Field(
        name: "mucus", label: "Mucus", value: mucus, type: "select",
        choices: choices(CycleNote.Mucus.allCases.map(\.rawValue))),
      Field(name: "pain", label: "Pain", value: pain, hint: "e.g. cramps, headache"),
      Field(name: "mood", label: "Mood", value: mood, hint: "e.g. tired, calm"),
      Field(
        name: "sex", label: "Sex", value: sex, type: "select",
        choices: choices(CycleNote.Sex.allCases.map(\.rawValue))),
      Field(name: "text", label: "Note", value: text, type: "textarea"),
    ]
    let checked: HTML = excludeTemperature ? " checked" : ""
    return fields.map { field -> HTML in
      var field = field
      field.id = "note-\(field.name)"
      return field.html(error: errors[field.name])
    }.joined()
      + """
      <div class="check"><input type="checkbox" id="note-exclude-temperature" name="exclude-temperature"\(checked)>\
      <label for="note-exclude-temperature">Leave this temperature out (fever, a late night)</label></div>
      <input type="hidden" name="date" value="\(date)">

      """
  }
}
