import Core
import Foundation

/// What a sync page holds beyond plain JSON: changes and their fields.
extension JSONScanner {
  /// A change; `names` are the field names of the change before, kept for the next.
  mutating func change(names: inout FieldNames) throws -> WireChange {
    var sent: Range<Int>?
    return try change(names: &names, sent: &sent)
  }

  /// `change(names:)`, and where its fields object stands in `bytes` when it holds nothing but
  /// fields (each a value and at most one clock) sharing a clock: a server stores a new record's
  /// fields as they came instead of writing them again, which took an eighth of its first push.
  mutating func change(names: inout FieldNames, sent: inout Range<Int>?) throws -> WireChange {
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

  mutating func fields(names: inout FieldNames) throws -> WireFields {
    var plain = true
    return try fields(names: &names, plain: &plain)
  }

  /// `fields(names:)`; `plain` false when a field holds more than a value and one clock, or when
  /// several fields each have a clock of their own and none is shared.
  mutating func fields(names: inout FieldNames, plain: inout Bool) throws -> WireFields {
    // Room for a whole record's fields at once.
    var fields = WireFields(minimumCapacity: Swift.max(names.names.count, 16))
    var position = 0
    // The record's shared clock ("*"); whether a field (one without "hlc") took it, and those
    // that wait for it.
    var shared: String?
    var taken = false
    var waiting: [String] = []
    // The field before went after all the others: the last of `fields` is `names[position - 1]`.
    var appended = true
    try rawMembers { p, key in
      if JSONScanner.is(key, "*") {
        guard shared == nil else { throw Malformed() }
        shared = try p.string(repeating: &names.clock)
        return
      }
      let name = names.name(key, at: position)
      // A name that sorts after the one before it goes at the end, unlike any name there: placed
      // without comparing it again (most records name their fields in order, as all are written).
      let inOrder = appended && names.sortsAfterPrevious[position]
      position += 1
      var value: WireValue?
      var hlc: String?
      if case (let read, let clock)? = try p.writtenField(last: &names.clock) {
        (value, hlc) = (read, clock)
      } else {
        try p.rawMembers { p, key in
          if JSONScanner.is(key, "hlc") {
            if hlc != nil { plain = false }
            hlc = try p.string(repeating: &names.clock)
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
      let field: WireField
      if let hlc {
        field = WireField(value: value, hlc: hlc)
      } else if let shared {
        field = WireField(value: value, hlc: shared)
        taken = true
      } else {
        // "*" may come after the fields that take it: given to them once it is read.
        field = WireField(value: value, hlc: "")
        waiting.append(name)
      }
      if inOrder {
        fields.append(afterAll: name, field)
      } else {
        // A field named twice is refused: which of the two counts would be the reader's guess.
        guard fields.insertNew(name, field) else { throw Malformed() }
        appended = fields.keys.last == name
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
