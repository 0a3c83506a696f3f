/// One labelled form field, named after the CLI option it mirrors (`at`, `place`, `hb`). Its
/// error, when the last submission had one, stands right under it and is what a screen reader
/// hears with it (`aria-describedby`, `aria-invalid`).
struct Field {
  let name: String
  let label: String
  var value: String = ""
  var type = "text"
  /// A short line under the label: the unit, the format.
  var hint: String?
  var required = false
  /// `inputmode` for a phone's keyboard: `decimal`, `numeric`.
  var inputMode: String?
  var choices: [(value: String, label: String)] = []
  /// The element's id: unique on the page (two forms may share field names).
  var id: String?

  func html(error: String?) -> HTML {
    let id = self.id ?? "field-\(name)"
    var described: [String] = []
    if hint != nil { described.append("\(id)-hint") }
    if error != nil { described.append("\(id)-error") }
    var attributes: HTML = "id=\"\(id)\" name=\"\(name)\""
    if !described.isEmpty { attributes = attributes + " aria-describedby=\"\(described.joined(separator: " "))\"" }
    if error != nil { attributes = attributes + " aria-invalid=\"true\"" }
    if required { attributes = attributes + " required" }
    let hint: HTML =
      self.hint.map { (text: String) -> HTML in "<span class=\"hint\" id=\"\(id)-hint\">\(text)</span>" } ?? ""
    let error: HTML =
      error.map { (text: String) -> HTML in
        "<span class=\"field-error\" id=\"\(id)-error\" role=\"alert\">\(text)</span>"
      } ?? ""
    return """
      <div class="field\(error.text.isEmpty ? "" : HTML(" invalid"))"><label for="\(id)">\(label)</label>\(hint)\(control(attributes))\(error)</div>

      """
  }

  private func control(_ attributes: HTML) -> HTML {
    switch type {
    case "textarea":
      return "<textarea \(attributes) rows=\"3\">\(value)</textarea>"
    case "select":
      let options = choices.map { choice -> HTML in
        "<option value=\"\(choice.value)\"\(choice.value == value ? HTML(" selected") : "")>\(choice.label)</option>"
      }
      return "<select \(attributes)>\(options)</select>"
    default:
      let mode: HTML = inputMode.map { (mode: String) -> HTML in " inputmode=\"\(mode)\"" } ?? ""
      return "<input type=\"\(type)\" \(attributes) value=\"\(value)\"\(mode)>"
    }
  }
}
