import Foundation
import Hummingbird
import Sync

/// Every JSON answer of the server, written one way: members in the order given, text quoted by
/// `WireJSON.quote`, and JSON the server stored (records' fields, a wrapped key) passed through
/// as it was checked on the way in. Errors are `APIError`s.
enum Answer {
  enum Value {
    case string(String)
    case int(Int)
    case bool(Bool)
    /// JSON text the server already holds in canonical form.
    case stored(String)
    /// An array of such texts.
    case storedArray([String])
  }

  /// Written into the answer's buffer, sized once: a pull page is megabytes of stored records,
  /// and joined into a string that then became the buffer, each was copied three more times.
  static func json(_ status: HTTPResponse.Status, _ members: KeyValuePairs<String, Value>) -> Response {
    var size = 2
    for (name, value) in members {
      size += name.utf8.count + 4
      switch value {
      case .string(let text): size += text.utf8.count + 2
      case .int, .bool: size += 20
      case .stored(let json): size += json.utf8.count
      case .storedArray(let items): size += 2 + items.reduce(0) { $0 + $1.utf8.count + 1 }
      }
    }
    var out = ByteBufferAllocator().buffer(capacity: size)
    out.writeStaticString("{")
    for (index, (name, value)) in members.enumerated() {
      if index > 0 { out.writeStaticString(",") }
      out.writeString(WireJSON.quote(name))
      out.writeStaticString(":")
      switch value {
      case .string(let text): out.writeString(WireJSON.quote(text))
      case .int(let number): out.writeString(String(number))
      case .bool(let flag): out.writeStaticString(flag ? "true" : "false")
      case .stored(let json): out.writeString(json)
      case .storedArray(let items):
        out.writeStaticString("[")
        for (index, item) in items.enumerated() {
          if index > 0 { out.writeStaticString(",") }
          out.writeString(item)
        }
        out.writeStaticString("]")
      }
    }
    out.writeStaticString("}")
    return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: out))
  }
}

/// `GET /v1/version`: the server's release and the sync protocol it speaks.
struct ServerVersion: ResponseEncodable {
  let server = "vital-serve \(Release.version)"
  let version = Release.version
  let `protocol` = Release.syncProtocol
}
