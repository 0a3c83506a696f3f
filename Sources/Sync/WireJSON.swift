import Core
import Foundation

/// A small JSON reader and writer for sync pages, requests and stored records. JSONDecoder and
/// JSONEncoder spend tens of microseconds per record on Codable bookkeeping; a page of a
/// thousand records is read here in a few milliseconds.
public enum WireJSON {
  public typealias Malformed = JSONScanner.Malformed

  /// Reads a sync request, `{"since", "changes": [...]}`. Anything this reader refuses is left
  /// to JSONDecoder by the caller, whose error says where the body went wrong.
  public static func syncRequest(_ data: Data) throws -> SyncRequest {
    try data.withUnsafeBytes { raw in
      var p = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
      var changes: [WireChange]?
      var sent: [String?] = []
      var since: String?
      var keyID: String?
      var sharedClocks = false
      try p.members { p, key in
        switch key {
        case "changes":
          var list: [WireChange] = []
          var names = FieldNames()
          sent.removeAll()
          try p.elements { p in
            var range: Range<Int>?
            list.append(try p.change(names: &names, sent: &range))
            sent.append(range.map { String(decoding: UnsafeBufferPointer(rebasing: p.bytes[$0]), as: UTF8.self) })
          }
          changes = list
        case "since":
          switch try p.value() {
          case .string(let text): since = text
          case .null: since = nil
          default: throw Malformed()
          }
        case "key_id":
          switch try p.value() {
          case .string(let text): keyID = text
          case .null: keyID = nil
          default: throw Malformed()
          }
        case "shared_clocks":
          guard case .bool(let flag) = try p.value() else { throw Malformed() }
          sharedClocks = flag
        default:
          _ = try p.value()
        }
      }
      p.skipSpace()
      guard p.index == p.bytes.count, let changes else { throw Malformed() }
      var request = SyncRequest(since: since, changes: changes, keyID: keyID, sharedClocks: sharedClocks)
      request.sentFields = sent
      return request
    }
  }

  /// A stored record's fields, `{"*": "<clock>", "<field>": {"hlc", "value"}, ...}` (a field
  /// without `hlc` has the clock `"*"`).
  public static func fields(_ text: String) throws -> WireFields {
    try whole(text) { p in
      var names = FieldNames()
      return try p.fields(names: &names)
    }
  }

  /// What `read` reads of `text`, which it must read to the end (but for spaces).
  private static func whole<T>(_ text: String, _ read: (inout JSONScanner) throws -> T) throws -> T {
    var text = text
    return try text.withUTF8 { bytes in
      var p = JSONScanner(bytes: bytes)
      let value = try read(&p)
      p.skipSpace()
      guard p.index == p.bytes.count else { throw Malformed() }
      return value
    }
  }

  /// Fields as JSON, keys sorted (as JSONEncoder with `.sortedKeys` writes them).
  public static func encode(_ fields: WireFields) -> String {
    var writer = FieldsWriter()
    return writer.encode(fields)
  }

  /// A sync request as JSON. Written as bytes: joining strings cost a push a sixth of its time.
  /// Its changes give every field its clock: only a server that has said it reads shared clocks
  /// is sent them (`encode(_:sharedClocks:)`).
  public static func encode(_ request: SyncRequest) -> Data {
    encode(
      since: request.since, keyID: request.keyID, changes: encode(request.changes, sharedClocks: false),
      sharedClocks: request.sharedClocks)
  }

  /// Changes as the JSON array of a sync request. A device writes them while the server merges
  /// the request before: the cursor that goes with them is known only once that one is answered.
  /// `sharedClocks` once the server has said it reads them (`SyncResponse.sharedClocks`).
  public static func encode(_ changes: [WireChange], sharedClocks: Bool) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "[")]
    out.reserveCapacity(2 + changes.count * 512)
    var writer = FieldsWriter(sharedClocks: sharedClocks)
    for (i, change) in changes.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      append(change, with: &writer, to: &out)
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  /// Appends a change as a JSON object, its fields written by `writer`.
  private static func append(_ change: WireChange, with writer: inout FieldsWriter, to out: inout [UInt8]) {
    out += datasetKey
    JSONText.appendQuoted(change.dataset, to: &out)
    out += idKey
    JSONText.appendQuoted(change.id, to: &out)
    out += fieldsKey
    writer.append(change.fields, to: &out)
    out.append(UInt8(ascii: "}"))
  }

  /// A sync request as JSON, around changes encoded already (`encode(_:sharedClocks:)`).
  /// `sharedClocks` says the device reads answers whose fields share clocks.
  public static func encode(since: String?, keyID: String?, changes: [UInt8], sharedClocks: Bool = true) -> Data {
    var out: [UInt8] = []
    out.reserveCapacity(128 + changes.count)
    out.append(contentsOf: #"{"since":"#.utf8)
    if let since { JSONText.appendQuoted(since, to: &out) } else { out.append(contentsOf: "null".utf8) }
    if let keyID {
      out.append(contentsOf: #","key_id":"#.utf8)
      JSONText.appendQuoted(keyID, to: &out)
    }
    if sharedClocks { out.append(contentsOf: #","shared_clocks":true"#.utf8) }
    out.append(contentsOf: #","changes":"#.utf8)
    out += changes
    out.append(UInt8(ascii: "}"))
    return Data(out)
  }

  private static let datasetKey = Array(#"{"dataset":"#.utf8)
  private static let idKey = Array(#","id":"#.utf8)
  private static let fieldsKey = Array(#","fields":"#.utf8)

  /// A JSON string literal.
  public static func quote(_ s: String) -> String { JSONText.quote(s) }

  /// Appends a JSON string literal.
  public static func appendQuoted(_ s: String, to out: inout [UInt8]) { JSONText.appendQuoted(s, to: &out) }

  /// Reads a sync answer, `{"accepted", "changes": [...], "cursor", "has_more"}`, straight into
  /// changes, without building a tree first.
  public static func syncResponse(_ data: Data) throws -> SyncResponse {
    try data.withUnsafeBytes { raw in
      var p = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
      var changes: [WireChange] = []
      var cursor: String?
      var hasMore: Bool?
      var accepted = 0
      var encrypted = false
      var sharedClocks = false
      var limits: SyncLimits?
      try p.members { p, key in
        switch key {
        case "changes":
          var names = FieldNames()
          try p.elements { p in changes.append(try p.change(names: &names)) }
        case "cursor":
          guard case .string(let text) = try p.value() else { throw Malformed() }
          cursor = text
        case "has_more":
          guard case .bool(let flag) = try p.value() else { throw Malformed() }
          hasMore = flag
        case "accepted":
          if case .int(let n) = try p.value() { accepted = Int(n) }
        case "encrypted":
          guard case .bool(let flag) = try p.value() else { throw Malformed() }
          encrypted = flag
        case "shared_clocks":
          guard case .bool(let flag) = try p.value() else { throw Malformed() }
          sharedClocks = flag
        case "limits":
          var body: Int?
          var value: Int?
          try p.members { p, key in
            let number: Int? = if case .int(let n) = try p.value(), n > 0 { Int(clamping: n) } else { nil }
            if key == "body_bytes" { body = number } else if key == "value_bytes" { value = number }
          }
          if let body, let value { limits = SyncLimits(bodyBytes: body, valueBytes: value) }
        default:
          _ = try p.value()
        }
      }
      p.skipSpace()
      guard p.index == p.bytes.count, let cursor, let hasMore else { throw Malformed() }
      return SyncResponse(
        changes: changes, cursor: cursor, hasMore: hasMore, accepted: accepted, encrypted: encrypted, limits: limits,
        sharedClocks: sharedClocks)
    }
  }

  /// A change of an answer (`{"dataset", "id", "fields"}`) written again with a clock in every
  /// field, for a device that does not read shared clocks. Read whole, not searched for a `*`:
  /// a key may be written with escapes.
  public static func withClockPerField(_ change: String) throws -> String {
    let parsed = try whole(change) { p in
      var names = FieldNames()
      return try p.change(names: &names)
    }
    var out: [UInt8] = []
    var writer = FieldsWriter(sharedClocks: false)
    append(parsed, with: &writer, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

}
