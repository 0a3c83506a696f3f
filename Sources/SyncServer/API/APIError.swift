import Foundation
import Hummingbird
import Storage
import Sync

/// A refusal as the API documents it: `{"error": {"code", "message", ...}}`, the code for
/// programs (`ErrorCode`), the message for people. Handlers throw it; `ErrorBodies` makes one of
/// any other error (Hummingbird's own, by their status).
struct APIError: HTTPResponseError {
  let status: HTTPResponse.Status
  let code: ErrorCode
  let message: String
  var headers: HTTPFields = [:]
  /// The record a refusal is about: its dataset and id as sent, and the field whose value failed.
  var dataset: String? = nil
  var id: String? = nil
  var field: String? = nil
  /// With `clock_ahead`: the server's time, for the device to stamp its changes anew.
  var serverTime: Date? = nil

  init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String, headers: HTTPFields = [:]) {
    self.status = status
    self.code = code
    self.message = message
    self.headers = headers
  }

  /// The body, members in a fixed order and text quoted as every answer's is.
  var json: String {
    var error = "{\"code\":" + WireJSON.quote(code.rawValue) + ",\"message\":" + WireJSON.quote(message)
    for (name, value) in [("dataset", dataset), ("id", id), ("field", field)] {
      if let value { error += ",\(WireJSON.quote(name)):" + WireJSON.quote(value) }
    }
    error += "}"
    guard let serverTime else { return "{\"error\":\(error)}" }
    return "{\"error\":\(error),\"server_time\":" + WireJSON.quote(ISO8601.string(from: serverTime)) + "}"
  }

  func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers = headers
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
  }
}
