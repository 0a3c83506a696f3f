import Foundation
import Sync

/// Why a call to the sync server failed, in words that say what to do next.
public enum SyncError: Error, Equatable, CustomStringConvertible {
  case http(status: Int, message: String)
  case unauthorized(String)
  case resyncRequired
  case unreachable(String, reason: String)
  case badResponse(String)
  /// The account is end-to-end encrypted and this device has not got its key yet.
  case encrypted
  /// This device seals its records but the server has no key for the account any more.
  case keyMissing
  /// The account's key was rotated on another device: this one needs the passphrase again.
  case keyRotated
  /// The device's clock ran ahead of the server's (it is the server's time).
  case clockAhead(Date)
  /// 413: a request, or the record the server names, is larger than it takes.
  case tooLarge(String, dataset: String?, id: String?)
  /// 400 naming a record: a value the server's rules refuse (a record an older Vital stored).
  case recordRefused(String, dataset: String, id: String)
  /// A server that would keep a sync going without end (`PullBounds`).
  case serverRunaway(server: String, String)

  public var description: String {
    switch self {
    case .http(let status, let message): return "the server refused the request (\(status)): \(message)"
    case .unauthorized(let message): return "the server did not accept the login (\(message)); run 'vital remote login'"
    case .resyncRequired: return "the server asked for a full resync; run 'vital sync' again"
    case .unreachable(let url, let reason): return "cannot reach \(url) (\(reason)); is 'vital serve' running?"
    case .badResponse(let what): return "the server's answer was not understood: \(what)"
    case .encrypted: return EncryptionError.passphraseNeeded.description
    case .keyRotated:
      return
        "this account's sync key was rotated on another device; run 'vital sync' on a terminal, or with --passphrase-stdin, to enter the sync passphrase"
    case .clockAhead:
      return
        "this device's clock was more than an hour ahead of the server's; check the clock (its pending changes were stamped again once and still refused)"
    case .tooLarge(let message, _, _): return "the server refused a request as too large: \(message)"
    case .recordRefused(let message, _, _): return "the server refused a record: \(message)"
    case .serverRunaway(let server, let why): return "stopped syncing with \(server): \(why)"
    case .keyMissing:
      return
        "the server has lost this account's sync key; run 'vital sync' again to send it (sealed) and everything else"
    }
  }
}
