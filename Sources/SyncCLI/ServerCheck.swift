import CLIApp
import CLICore
import Foundation
import Schema
import Sync
import SyncHTTP

/// What `vital remote status` learns from the server itself: its release and protocol, or that
/// it could not be reached. Never fails the status: a status is most wanted when things are wrong.
struct ServerCheck {
  var json: JSON = .null
  var line = "not asked"
  var warning: String?

  init(_ remote: RemoteSettings?, app: App, account: Account) async {
    guard let remote, let url = URL(string: remote.url) else { return }
    let client = SyncClient(db: app.db, accountID: account.id, now: app.now, url: url, datasets: VitalSchema.datasets)
    do {
      guard let version = try await client.serverVersion() else {
        json = .object([("reachable", .bool(true)), ("version", .null), ("protocol", .null), ("compatible", .null)])
        line = "a server older than GET /v1/version"
        return
      }
      json = .object([
        ("reachable", .bool(true)), ("version", .string(version.version)), ("protocol", .int(version.syncProtocol)),
        ("compatible", .bool(version.compatible)),
      ])
      line = "\(version.server), sync protocol \(version.syncProtocol)"
      if !version.compatible {
        warning =
          "the server speaks sync protocol \(version.syncProtocol) and this Vital speaks \(Release.syncProtocol): update \(version.syncProtocol > Release.syncProtocol ? "Vital" : "the server") before syncing"
      }
    } catch {
      json = .object([("reachable", .bool(false)), ("version", .null), ("protocol", .null), ("compatible", .null)])
      line = "unreachable"
    }
  }
}
