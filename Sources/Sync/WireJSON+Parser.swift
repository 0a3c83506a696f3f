import Core
import Foundation

/// What a sync page holds beyond plain JSON: changes and their fields.
extension JSONScanner {
  mutating func change() throws -> WireChange {
    var dataset: String?
    var id: String?
    var fields: [String: WireField] = [:]
    var sawFields = false
    try members { p, key in
      switch key {
      case "dataset":
        guard case .string(let text) = try p.value() else { throw Malformed() }
        dataset = text
      case "id":
        guard case .string(let text) = try p.value() else { throw Malformed() }
        id = text
      case "fields":
        fields = try p.fields()
        sawFields = true
      default:
        _ = try p.value()
      }
    }
    guard let dataset, let id, sawFields else { throw Malformed() }
    return WireChange(dataset: dataset, id: id, fields: fields)
  }

  mutating func fields() throws -> [String: WireField] {
    // Room for a whole record's fields at once: grown from empty, the dictionary was hashed
    // anew four times for each record of a page.
    var fields: [String: WireField] = Dictionary(minimumCapacity: 16)
    // The fields of a record written at once share one clock.
    var last: String?
    try members { p, name in
      var value: WireValue?
      var hlc: String?
      try p.members { p, key in
        if key == "hlc" {
          hlc = try p.string(sameAs: last)
          return
        }
        let node = try p.value()
        switch (key, node) {
        case ("value", .null): value = .null
        case ("value", .bool(let b)): value = .bool(b)
        case ("value", .int(let i)): value = .int(i)
        case ("value", .double(let d)): value = .double(d)
        case ("value", .string(let text)): value = .string(text)
        case ("value", _): throw Malformed()
        default: break
        }
      }
      guard let value, let hlc else { throw Malformed() }
      fields[name] = WireField(value: value, hlc: hlc)
      last = hlc
    }
    return fields
  }
}
