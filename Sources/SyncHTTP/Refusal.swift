import Foundation
import Storage
import Sync

/// A server's error answer, `{"error": {"code", "message", ...}}`, read once: what the client
/// does next depends on the code (`ErrorCode`), never on the message.
struct Refusal {
  var code: ErrorCode?
  var message = "no message"
  var dataset: String?
  var id: String?
  var serverTime: Date?

  init(_ data: Data) {
    struct Body: Decodable {
      struct Inner: Decodable {
        let code: String?
        let message: String?
        let dataset: String?
        let id: String?
      }
      let error: Inner
      let server_time: String?
    }
    guard let body = try? JSONDecoder().decode(Body.self, from: data) else { return }
    code = body.error.code.flatMap(ErrorCode.init(rawValue:))
    message = body.error.message ?? message
    (dataset, id) = (body.error.dataset, body.error.id)
    serverTime = body.server_time.flatMap(ISO8601.date(from:))
  }

  /// What the refusal means for the sync, by its code; a code this client does not know (a newer
  /// server's) reads as its status.
  func error(status: Int) -> SyncError {
    switch code {
    case .clockAhead?:
      if let serverTime { return .clockAhead(serverTime) }
    case .invalidValue?:
      if let dataset, let id { return .recordRefused(message, dataset: dataset, id: id) }
    case .valueTooLarge?, .tooLarge?:
      return .tooLarge(message, dataset: dataset, id: id)
    case .unauthorized?, .wrongCredentials?: return .unauthorized(message)
    case .encrypted?: return .encrypted
    case .resyncRequired?: return .resyncRequired
    case .keyRotated?: return .keyRotated
    default: break
    }
    return .http(status: status, message: message)
  }
}
