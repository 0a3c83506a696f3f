import Core
import Foundation
import Records

/// A medication's fields on a page, named as `vital meds add` and `edit` name their options
/// (`times` holds what `--at` takes, comma-separated), with what the last submission sent.
struct MedsFields: Equatable {
  var name = ""
  var times = ""
  var days = ""
  var dose = ""
  var stock = ""
  var refillAt = ""
  var asNeeded = false
  var minInterval = ""
  var maxPerDay = ""
  var steps = ""
  var start = ""
  var thenKeep = false
  var zone = ""
  var minGap = ""
  var expires = ""

  init() {}

  init(_ form: Form) {
    name = form["name"] ?? ""
    times = form["times"] ?? ""
    days = form["days"] ?? ""
    dose = form["dose"] ?? ""
    stock = form["stock"] ?? ""
    refillAt = form["refill-at"] ?? ""
    asNeeded = form["as-needed"] != nil
    minInterval = form["min-interval"] ?? ""
    maxPerDay = form["max-per-day"] ?? ""
    steps = form["steps"] ?? ""
    start = form["start"] ?? ""
    thenKeep = form["then-keep"] != nil
    zone = form["zone"] ?? ""
    minGap = form["min-gap"] ?? ""
    expires = form["expires"] ?? ""
  }

  /// The stored medication, as its edit form starts (stock as counted now).
  init(_ m: Medication, stock: Int?) {
    name = m.name
    times = m.times.map(\.description).joined(separator: ", ")
    days = m.days.map { $0.map(\.name).joined(separator: ",") } ?? ""
    dose = m.dose ?? ""
    self.stock = stock.map(String.init) ?? ""
    refillAt = m.refillAt.map(String.init) ?? ""
    asNeeded = m.asNeeded
    minInterval = m.minInterval.map(TimeSpan.text) ?? ""
    maxPerDay = m.maxPerDay.map(String.init) ?? ""
    steps = m.steps.map(TaperStep.text) ?? ""
    start = m.stepsStart?.description ?? ""
    thenKeep = m.thenKeep
    zone = m.zone ?? ""
    minGap = m.minGap.map(TimeSpan.text) ?? ""
    expires = m.expires?.description ?? ""
  }

  /// The changes `add` makes, or `edit` makes of the fields that differ from `before`.
  func changes(from before: MedsFields? = nil) throws -> MedicationStore.Changes {
    func changed<T: Equatable>(_ field: KeyPath<MedsFields, T>) -> Bool {
      before.map { $0[keyPath: field] != self[keyPath: field] } ?? true
    }
    func text(_ value: String) -> String? {
      let trimmed = value.trimmingCharacters(in: .whitespaces)
      return trimmed.isEmpty ? nil : trimmed
    }
    /// A cleared field: `.some(nil)` on an edit; on an add, a field left empty is not given.
    func optional<T>(_ value: T?) -> T?? {
      guard value != nil || before != nil else { return nil }
      return .some(value)
    }
    var c = MedicationStore.Changes()
    if changed(\.name), before != nil { c.name = name }
    if changed(\.times) {
      c.times = times.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }
    if changed(\.days) { c.days = optional(text(days).map { [$0] }) }
    if changed(\.dose) { c.dose = optional(text(dose)) }
    if changed(\.stock), let count = text(stock) {
      guard let count = Int(count) else { throw Refusal(field: "stock", MedicationError.badStock.description) }
      c.stock = count
    }
    if changed(\.refillAt) { c.refillAt = optional(try Self.whole(refillAt, "refill-at", MedicationError.badStock)) }
    if changed(\.asNeeded) { c.asNeeded = asNeeded }
    if changed(\.minInterval) { c.minInterval = optional(text(minInterval)) }
    if changed(\.maxPerDay) {
      c.maxPerDay = optional(try Self.whole(maxPerDay, "max-per-day", MedicationError.badMaxPerDay))
    }
    if changed(\.steps) { c.steps = optional(text(steps)) }
    if changed(\.start), let day = text(start) {
      guard let day = LocalDate(day) else { throw Refusal(field: "start", MedicationError.badStart.description) }
      c.stepsStart = day
    }
    if changed(\.thenKeep), thenKeep || before != nil { c.thenKeep = thenKeep }
    if changed(\.zone) { c.zone = text(zone) ?? (before == nil ? nil : "local") }
    if changed(\.minGap) { c.minGap = optional(text(minGap)) }
    if changed(\.expires) {
      if let day = text(expires) {
        guard let date = LocalDate(day) else { throw Refusal(field: "expires", "Write the expiry date as YYYY-MM-DD.") }
        c.expires = .some(date)
      } else {
        c.expires = optional(nil)
      }
    }
    return c
  }

  static func whole(_ text: String, _ field: String, _ error: MedicationError) throws -> Int? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return nil }
    guard let value = Int(trimmed) else { throw Refusal(field: field, error.description) }
    return value
  }

  func html(_ prefix: String, errors: [String: String]) -> HTML {
    let fields = [
      Field(name: "name", label: "Name", value: name, required: true),
      Field(name: "times", label: "Times", value: times, hint: "HH:MM, several with commas: 08:00, 20:00"),
      Field(name: "days", label: "Weekdays", value: days, hint: "e.g. mon,thu; empty: every day"),
      Field(name: "dose", label: "Dose", value: dose, hint: "e.g. 1 tablet, 400 mg"),
      Field(name: "stock", label: "Stock", value: stock, hint: "doses in hand", inputMode: "numeric"),
      Field(
        name: "refill-at", label: "Refill at", value: refillAt, hint: "warn at this stock; empty: three days of doses",
        inputMode: "numeric"),
      Field(
        name: "steps", label: "Taper steps", value: steps, hint: "DOSE:LENGTH, e.g. 20 mg:7d,10 mg:7d; empty: none"),
      Field(name: "start", label: "Schedule starts", value: start, type: "date", hint: "the taper's first day"),
      Field(
        name: "zone", label: "Time zone", value: zone, hint: "empty: the times follow you; or e.g. Europe/Berlin"),
      Field(name: "min-gap", label: "Least gap after a late dose", value: minGap, hint: "e.g. 6h"),
      Field(name: "expires", label: "Pack expires", value: expires, type: "date"),
      Field(name: "min-interval", label: "As needed: least time between doses", value: minInterval, hint: "e.g. 4h"),
      Field(
        name: "max-per-day", label: "As needed: most doses in 24 hours", value: maxPerDay, inputMode: "numeric"),
    ]
    let body = fields.map { field -> HTML in
      var field = field
      field.id = "\(prefix)-\(field.name)"
      return field.html(error: errors[field.name])
    }.joined()
    return body + check(prefix, "as-needed", "Taken as needed: no schedule, no reminders", asNeeded)
      + check(prefix, "then-keep", "After the last taper step, keep its dose", thenKeep)
  }

  func check(_ prefix: String, _ name: String, _ label: String, _ on: Bool) -> HTML {
    let checked: HTML = on ? " checked" : ""
    return """
      <div class="check"><input type="checkbox" id="\(prefix)-\(name)" name="\(name)"\(checked)>\
      <label for="\(prefix)-\(name)">\(label)</label></div>

      """
  }
}
