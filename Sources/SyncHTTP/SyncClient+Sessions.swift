import Foundation
import Storage

/// The account's sessions on the server, one per logged-in device (`vital remote devices`).
extension SyncClient {
  public struct Session: Equatable, Sendable {
    public let id: String
    public let deviceName: String
    public let created: Date
    public let lastUsed: Date
    /// The session this device called with.
    public let current: Bool
  }

  public func sessions(token: String) async throws -> [Session] {
    struct Body: Decodable {
      struct Item: Decodable {
        let id: String
        let device_name: String
        let created_at: String
        let last_used_at: String
        let current: Bool
      }
      let sessions: [Item]
    }
    let data = try await send("GET", "/v1/sessions", body: nil, token: token)
    guard let body = try? JSONDecoder().decode(Body.self, from: data) else {
      throw SyncError.badResponse("GET /v1/sessions answered without a list of sessions")
    }
    return try body.sessions.map { item in
      guard let created = ISO8601.date(from: item.created_at), let lastUsed = ISO8601.date(from: item.last_used_at)
      else { throw SyncError.badResponse("a session's times are not ISO 8601") }
      return Session(
        id: item.id, deviceName: item.device_name, created: created, lastUsed: lastUsed, current: item.current)
    }
  }

  /// Ends the session `id` at once: that device's next call gets 401.
  public func revokeSession(id: String, token: String) async throws {
    _ = try await send("DELETE", "/v1/sessions/\(id)", body: nil, token: token)
  }
}

extension SyncClient.Session {
  /// The one session `query` names: its id, a prefix of its id of at least 4 digits, or its
  /// device name (letter case aside). Two devices with one name are told apart by id.
  public static func named(_ query: String, in sessions: [Self]) throws -> Self {
    let wanted = query.trimmingCharacters(in: .whitespaces)
    var found = sessions.filter { $0.id == wanted.lowercased() }
    if found.isEmpty, wanted.count >= 4 { found = sessions.filter { $0.id.hasPrefix(wanted.lowercased()) } }
    if found.isEmpty { found = sessions.filter { $0.deviceName.lowercased() == wanted.lowercased() } }
    guard !found.isEmpty else { throw DeviceLookupError.unknown(wanted) }
    guard found.count == 1 else { throw DeviceLookupError.ambiguous(wanted, ids: found.map(\.id)) }
    return found[0]
  }
}

public enum DeviceLookupError: Error, Equatable, CustomStringConvertible {
  case unknown(String)
  case ambiguous(String, ids: [String])

  public var description: String {
    switch self {
    case .unknown(let query):
      return "no logged-in device is called or has the id '\(query)'; 'vital remote devices' lists them"
    case .ambiguous(let query, let ids):
      return "'\(query)' names \(ids.count) devices (\(ids.joined(separator: ", "))); give the id instead"
    }
  }
}
