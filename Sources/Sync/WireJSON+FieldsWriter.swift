import Core
import Foundation

extension WireJSON {
  /// Writes records' fields as JSON objects, one record after another. The records of a push or
  /// of a merge mostly name the same fields (the very same Strings, from one reader or one
  /// outbox): each name is quoted once for them all, with what follows it up to its clock.
  ///
  /// The clock most fields share is written once, as `"*"` (docs/sync-protocol.md, "Wire
  /// format"): a donation written at once takes 44 % of the bytes it took with a clock per field.
  /// `sharedClocks: false` writes a clock in every field, for a device or server older than that.
  public struct FieldsWriter {
    private let sharedClocks: Bool
    private var names: [String] = []
    /// `"name":{"hlc":` for each of `names`.
    private var heads: [[UInt8]] = []
    /// `"name":{"value":` for each of `names`: a field with the record's shared clock.
    private var valueHeads: [[UInt8]] = []

    public init(sharedClocks: Bool = true) {
      self.sharedClocks = sharedClocks
    }

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
        valueHeads = names.map { name in
          var head: [UInt8] = []
          JSONText.appendQuoted(name, to: &head)
          head += Self.bareValueKey
          return head
        }
      }
      out.append(UInt8(ascii: "{"))
      // The fields of a record written at once share one clock: it is written once, as "*", and
      // only a field with another clock names its own.
      let shared = sharedClocks ? Self.sharedClock(fields.values) : nil
      if let shared {
        out += Self.sharedKey
        JSONText.appendQuoted(shared, to: &out)
      }
      var clock: (text: String, quoted: [UInt8])?
      // Each field read where it is: a copy of it retained and released its texts, for every
      // field of every record of a push.
      for i in fields.values.indices {
        if i > 0 || shared != nil { out.append(UInt8(ascii: ",")) }
        if fields.values[i].hlc == shared {
          out += valueHeads[i]
        } else {
          out += heads[i]
          if let clock, clock.text == fields.values[i].hlc {
            out += clock.quoted
          } else {
            let start = out.count
            JSONText.appendQuoted(fields.values[i].hlc, to: &out)
            // A copy: a slice would share `out`'s storage, and the next append would copy all of it.
            clock = (fields.values[i].hlc, Array(out[start...]))
          }
          out += Self.valueKey
        }
        switch fields.values[i].value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let n): JSONText.appendInteger(n, to: &out)
        case .double(let d): out.append(contentsOf: (d.isFinite ? "\(d)" : "null").utf8)
        case .string(let text): JSONText.appendQuoted(text, to: &out)
        }
        out.append(UInt8(ascii: "}"))
      }
      out.append(UInt8(ascii: "}"))
    }

    /// The clock most of the fields have, when at least two have it (of equals, the first).
    /// Counted in one pass: a record may hold any number of fields, each with another clock.
    static func sharedClock(_ fields: [WireField]) -> String? {
      guard fields.count > 1 else { return nil }
      // Mostly all of them: a record written at once.
      if fields.allSatisfy({ $0.hlc == fields[0].hlc }) { return fields[0].hlc }
      var counts: [String: (count: Int, first: Int)] = [:]
      for (index, field) in fields.enumerated() { counts[field.hlc, default: (0, index)].count += 1 }
      var best: (hlc: String, count: Int, first: Int)?
      for (hlc, seen) in counts where seen.count > 1 {
        if let known = best, known.count > seen.count || (known.count == seen.count && known.first < seen.first) {
          continue
        }
        best = (hlc, seen.count, seen.first)
      }
      return best?.hlc
    }

    private static let hlcKey = Array(#":{"hlc":"#.utf8)
    private static let valueKey = Array(#","value":"#.utf8)
    private static let bareValueKey = Array(#":{"value":"#.utf8)
    private static let sharedKey = Array(#""*":"#.utf8)
  }
}
