import Foundation

/// A JSON document with keys in the order they are given: the CLI contract lists them so, and
/// FHIR resources read best with `resourceType` first.
public enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  public static func == (a: JSON, b: JSON) -> Bool { a.serialized() == b.serialized() }

  public static func int(_ value: Int) -> JSON { .int(Int64(value)) }
  public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }

  public func serialized(pretty: Bool = true) -> String {
    var out = ""
    write(into: &out, indent: pretty ? 0 : nil)
    return out
  }

  private func write(into out: inout String, indent: Int?) {
    let newline = indent.map { "\n" + String(repeating: "  ", count: $0 + 1) } ?? ""
    let close = indent.map { "\n" + String(repeating: "  ", count: $0) } ?? ""
    let inner = indent.map { $0 + 1 }
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d):
      if d.isFinite {
        out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
      } else {
        out += "null"
      }
    case .string(let s): Self.escape(s, into: &out)
    case .array(let items):
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        out += (i == 0 ? "" : ",") + newline
        item.write(into: &out, indent: inner)
      }
      out += close + "]"
    case .object(let members):
      guard !members.isEmpty else {
        out += "{}"
        return
      }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        out += (i == 0 ? "" : ",") + newline
        Self.escape(key, into: &out)
        out += indent == nil ? ":" : ": "
        value.write(into: &out, indent: inner)
      }
      out += close + "}"
    }
  }

  private static func escape(_ s: String, into out: inout String) {
    out += JSONText.quote(s)
  }
}
