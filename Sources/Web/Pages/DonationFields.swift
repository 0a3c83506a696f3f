import Core
import Foundation
import Records

/// A donation's fields on a page, named as `vital donor add`, `book` and `edit` name their
/// options, with what the last submission sent (a refused form comes back as it was typed).
struct DonationFields {
  var at = ""
  var place = ""
  var kind = DonationKind.wholeBlood.rawValue
  var notes = ""
  var hb = ""
  var ferritin = ""
  var bp = ""
  var pulse = ""
  var force = false

  init() {}

  init(_ form: Form) {
    at = form["at"] ?? ""
    place = form["place"] ?? ""
    kind = form["kind"] ?? DonationKind.wholeBlood.rawValue
    notes = form["notes"] ?? ""
    hb = form["hb"] ?? ""
    ferritin = form["ferritin"] ?? ""
    bp = form["bp"] ?? ""
    pulse = form["pulse"] ?? ""
    force = form["force"] != nil
  }

  /// The stored donation, as its edit form starts.
  init(_ d: Donation, calendar: Calendar) {
    at = Self.local(d.date, calendar)
    place = d.place
    kind = d.kind.rawValue
    notes = d.notes ?? ""
    let v = d.vitals
    hb = v.haemoglobin.map(Self.number) ?? ""
    ferritin = v.ferritin.map(Self.number) ?? ""
    if let s = v.systolic, let dia = v.diastolic { bp = "\(s)/\(dia)" }
    pulse = v.pulse.map(String.init) ?? ""
  }

  var vitals: DonationVitals.Entry {
    DonationVitals.Entry(hb: hb, ferritin: ferritin, bp: bp, pulse: pulse)
  }

  /// `2026-11-26T09:30`: what a date-time field holds, on the local clock.
  static func local(_ date: Date?, _ calendar: Calendar) -> String {
    guard let date else { return "" }
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return String(format: "%04d-%02d-%02dT%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
  }

  /// `14.2`, `38`: a figure as typed.
  static func number(_ value: Double) -> String { Donation.figure(value) }

  /// The fields as a form draws them; `prefix` keeps two forms on one page apart; `measured`
  /// adds what the service measured (a donation made, not an appointment).
  func html(_ prefix: String, errors: [String: String], measured: Bool, force: Bool) -> HTML {
    var fields = [
      Field(
        name: "at", label: measured ? "When you donated" : "When", value: at, type: "datetime-local",
        hint: "Your local time.", required: true),
      Field(name: "place", label: "Where", value: place, required: true),
      Field(
        name: "kind", label: "Kind", value: kind, type: "select",
        choices: DonationKind.allCases.map { ($0.rawValue, $0.label) }),
    ]
    if measured {
      fields.append(Field(name: "notes", label: "Notes", value: notes, type: "textarea"))
      fields += [
        Field(name: "hb", label: "Haemoglobin", value: hb, hint: "g/dL, e.g. 14.2", inputMode: "decimal"),
        Field(name: "ferritin", label: "Ferritin", value: ferritin, hint: "ng/mL (µg/L)", inputMode: "decimal"),
        Field(name: "bp", label: "Blood pressure", value: bp, hint: "mmHg, e.g. 120/80"),
        Field(name: "pulse", label: "Pulse", value: pulse, hint: "beats per minute", inputMode: "numeric"),
      ]
    }
    var html = fields.map { field -> HTML in
      var field = field
      field.id = "\(prefix)-\(field.name)"
      return field.html(error: errors[field.name])
    }.joined()
    if force {
      let checked: HTML = self.force ? " checked" : ""
      html =
        html
          + """
          <div class="check"><input type="checkbox" id="\(prefix)-force" name="force"\(checked)>\
          <label for="\(prefix)-force">I did donate twice that day</label></div>

          """
    }
    return html
  }
}
