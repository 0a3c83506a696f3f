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

  static func json(_ status: HTTPResponse.Status, _ members: KeyValuePairs<String, Value>) -> Response {
    var out = "{"
    for (index, (name, value)) in members.enumerated() {
      if index > 0 { out += "," }
      out += WireJSON.quote(name) + ":"
      switch value {
      case .string(let text): out += WireJSON.quote(text)
      case .int(let number): out += String(number)
      case .bool(let flag): out += flag ? "true" : "false"
      case .stored(let json): out += json
      case .storedArray(let items): out += "[" + items.joined(separator: ",") + "]"
      }
    }
    out += "}"
    return Response(
      status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: out)))
  }
}

/// `GET /v1/version`: the server's release and the sync protocol it speaks.
struct ServerVersion: ResponseEncodable {
  let server = "vital-serve \(Release.version)"
  let version = Release.version
  let `protocol` = Release.syncProtocol
}
