import Core
import Foundation

/// What a sync page holds beyond plain JSON: changes and their fields.
extension JSONScanner {
  /// A change; `names` are the field names of the change before, kept for the next (each
  /// record of a page names the same fields, and they are then read without making Strings).
  mutating func change(names: inout [String]) throws -> WireChange {
    var sent: Range<Int>?
    return try change(names: &names, sent: &sent)
  }

  /// `change(names:)`, and where its fields object stands in `bytes` when it holds nothing but
  /// fields (each a value and at most one clock) sharing a clock: a server stores a new record's
  /// fields as they came instead of writing them again, which took an eighth of its first push.
  mutating func change(names: inout [String], sent: inout Range<Int>?) throws -> WireChange {
    var dataset: String?
    var id: String?
    var fields = WireFields()
    var sawFields = false
    try rawMembers { p, key in
      if JSONScanner.is(key, "dataset") {
        guard case .string(let text) = try p.value() else { throw Malformed() }
        dataset = text
      } else if JSONScanner.is(key, "id") {
        guard case .string(let text) = try p.value() else { throw Malformed() }
        id = text
      } else if JSONScanner.is(key, "fields") {
        p.skipSpace()
        let start = p.index
        var plain = true
        fields = try p.fields(names: &names, plain: &plain)
        sent = plain ? start..<p.index : nil
        sawFields = true
      } else {
        _ = try p.value()
      }
    }
    guard let dataset, let id, sawFields else { throw Malformed() }
    return WireChange(dataset: dataset, id: id, fields: fields)
  }

  mutating func fields(names: inout [String]) throws -> WireFields {
    var plain = true
    return try fields(names: &names, plain: &plain)
  }

  /// `fields(names:)`; `plain` false when a field holds more than a value and one clock, or when
  /// several fields each have a clock of their own and none is shared.
  mutating func fields(names: inout [String], plain: inout Bool) throws -> WireFields {
    // Room for a whole record's fields at once.
    var fields = WireFields(minimumCapacity: Swift.max(names.count, 16))
    // The fields of a record written at once share one clock.
    var last = JSONScanner.Repeated()
    var position = 0
    // The record's shared clock ("*"); whether a field (one without "hlc") took it, and those
    // that wait for it.
    var shared: String?
    var taken = false
    var waiting: [String] = []
    try rawMembers { p, key in
      if JSONScanner.is(key, "*") {
        guard shared == nil else { throw Malformed() }
        shared = try p.string(repeating: &last)
        return
      }
      let name = JSONScanner.string(key, sameAs: position < names.count ? names[position] : nil)
      if position < names.count { names[position] = name } else { names.append(name) }
      position += 1
      var value: WireValue?
      var hlc: String?
      if case (let read, let clock)? = try p.writtenField(last: &last) {
        (value, hlc) = (read, clock)
      } else {
        try p.rawMembers { p, key in
          if JSONScanner.is(key, "hlc") {
            if hlc != nil { plain = false }
            hlc = try p.string(repeating: &last)
            return
          }
          let node = try p.value()
          guard JSONScanner.is(key, "value") else {
            plain = false
            return
          }
          if value != nil { plain = false }
          value = try Self.wireValue(node)
        }
      }
      guard let value else { throw Malformed() }
      // A field named twice is refused: which of the two counts would be the reader's guess.
      if let hlc {
        guard fields.insertNew(name, WireField(value: value, hlc: hlc)) else { throw Malformed() }
      } else if let shared {
        guard fields.insertNew(name, WireField(value: value, hlc: shared)) else { throw Malformed() }
        taken = true
      } else {
        // "*" may come after the fields that take it: given to them once it is read.
        guard fields.insertNew(name, WireField(value: value, hlc: "")) else { throw Malformed() }
        waiting.append(name)
      }
    }
    if let shared {
      for name in waiting { fields[name]?.hlc = shared }
    }
    // A "*" no field takes would never be checked as a clock: refused, as one that is missing.
    let needed = taken || !waiting.isEmpty
    guard needed == (shared != nil) else { throw Malformed() }
    // Fields with a clock each (an older device, or a first request) are not in the form that
    // is stored and sent on (docs/sync-protocol.md, "Shared clocks").
    if shared == nil, fields.count > 1 { plain = false }
    return fields
  }

  /// A field as the writers write it, `{"value":V}` or `{"hlc":"C","value":V}`, read without
  /// going member by member; nil, having read nothing, for any other text (spaces, other
  /// members, another order), which `rawMembers` then reads. A first sync reads a million.
  private mutating func writtenField(last: inout Repeated) throws -> (WireValue, String?)? {
    let start = index
    var clock: String?
    if follows(#"{"hlc":"#) {
      index += 7
      clock = try string(repeating: &last)
      guard follows(#","value":"#) else {
        index = start
        return nil
      }
      index += 9
    } else if follows(#"{"value":"#) {
      index += 9
    } else {
      return nil
    }
    let value = try wireValue()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
      index = start
      return nil
    }
    index += 1
    return (value, clock)
  }

  /// Whether `text` stands at `index`.
  private func follows(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    return index + count <= bytes.count && memcmp(bytes.baseAddress! + index, text.utf8Start, count) == 0
  }

  /// A field's value: null, a boolean, a number or a text (read as text, not as a node first).
  private mutating func wireValue() throws -> WireValue {
    guard index < bytes.count else { throw Malformed() }
    return bytes[index] == UInt8(ascii: "\"") ? .string(try string()) : try Self.wireValue(value())
  }

  /// A value read whole as a field's: an object or an array is none.
  private static func wireValue(_ node: Node) throws -> WireValue {
    switch node {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .int(i)
    case .double(let d): .double(d)
    case .string(let text): .string(text)
    case .array, .object: throw Malformed()
    }
  }
}
