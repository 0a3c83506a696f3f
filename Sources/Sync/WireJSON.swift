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
      var since: String?
      var keyID: String?
      try p.members { p, key in
        switch key {
        case "changes":
          var list: [WireChange] = []
          try p.elements { p in list.append(try p.change()) }
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
        default:
          _ = try p.value()
        }
      }
      p.skipSpace()
      guard p.index == p.bytes.count, let changes else { throw Malformed() }
      return SyncRequest(since: since, changes: changes, keyID: keyID)
    }
  }

  /// A stored record's fields, `{"<field>": {"hlc", "value"}, ...}`.
  public static func fields(_ text: String) throws -> [String: WireField] {
    var text = text
    return try text.withUTF8 { bytes in
      var p = JSONScanner(bytes: bytes)
      let fields = try p.fields()
      p.skipSpace()
      guard p.index == p.bytes.count else { throw Malformed() }
      return fields
    }
  }

  /// Fields as JSON, keys sorted (as JSONEncoder with `.sortedKeys` writes them).
  public static func encode(_ fields: [String: WireField]) -> String {
    var out = "{"
    for (i, (name, field)) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
      if i > 0 { out += "," }
      out += quote(name) + ":{\"hlc\":" + quote(field.hlc) + ",\"value\":"
      switch field.value {
      case .null: out += "null"
      case .bool(let b): out += b ? "true" : "false"
      case .int(let n): out += String(n)
      case .double(let d): out += d.isFinite ? "\(d)" : "null"
      case .string(let text): out += quote(text)
      }
      out += "}"
    }
    return out + "}"
  }

  /// A sync request as JSON.
  public static func encode(_ request: SyncRequest) -> Data {
    var out = "{\"since\":" + (request.since.map(quote) ?? "null")
    if let keyID = request.keyID { out += ",\"key_id\":" + quote(keyID) }
    out += ",\"changes\":["
    for (i, change) in request.changes.enumerated() {
      if i > 0 { out += "," }
      out += "{\"dataset\":" + quote(change.dataset) + ",\"id\":" + quote(change.id) + ",\"fields\":"
      out += encode(change.fields) + "}"
    }
    return Data((out + "]}").utf8)
  }

  /// A JSON string literal.
  public static func quote(_ s: String) -> String { JSONText.quote(s) }

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
      var limits: SyncLimits?
      try p.members { p, key in
        switch key {
        case "changes":
          try p.elements { p in changes.append(try p.change()) }
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
        changes: changes, cursor: cursor, hasMore: hasMore, accepted: accepted, encrypted: encrypted, limits: limits)
    }
  }
}
