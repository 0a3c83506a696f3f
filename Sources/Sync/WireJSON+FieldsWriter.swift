import Core
import Foundation

extension WireJSON {
  /// Writes records' fields as JSON objects, one record after another. The records of a push or
  /// of a merge mostly name the same fields (the very same Strings, from one reader or one
  /// outbox): each name is quoted once for them all, with what follows it up to its clock.
  public struct FieldsWriter {
    private var names: [String] = []
    /// `"name":{"hlc":` for each of `names`.
    private var heads: [[UInt8]] = []

    public init() {}

    /// Fields as JSON, keys sorted (as `WireFields` holds them).
    public mutating func encode(_ fields: WireFields) -> String {
      var out: [UInt8] = []
      // About what a field takes with its clock: grown from empty, it was copied seven times.
      out.reserveCapacity(fields.count * 96)
      append(fields, to: &out)
      return String(decoding: out, as: UTF8.self)
    }

    /// Appends fields as a JSON object, keys sorted.
    public mutating func append(_ fields: WireFields, to out: inout [UInt8]) {
      if fields.keys != names {
        names = fields.keys
        heads = names.map { name in
          var head: [UInt8] = []
          JSONText.appendQuoted(name, to: &head)
          head += Self.hlcKey
          return head
        }
      }
      out.append(UInt8(ascii: "{"))
      // The fields of a record written at once share one clock's text: quoted once, then copied.
      var clock: (text: String, quoted: [UInt8])?
      for (i, field) in fields.values.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        out += heads[i]
        if let clock, clock.text == field.hlc {
          out += clock.quoted
        } else {
          let start = out.count
          JSONText.appendQuoted(field.hlc, to: &out)
          // A copy: a slice would share `out`'s storage, and the next append would copy all of it.
          clock = (field.hlc, Array(out[start...]))
        }
        out += Self.valueKey
        switch field.value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .double(let d): out.append(contentsOf: (d.isFinite ? "\(d)" : "null").utf8)
        case .string(let text): JSONText.appendQuoted(text, to: &out)
        }
        out.append(UInt8(ascii: "}"))
      }
      out.append(UInt8(ascii: "}"))
    }

    private static let hlcKey = Array(#":{"hlc":"#.utf8)
    private static let valueKey = Array(#","value":"#.utf8)
  }
}
