import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Sync
import SyncHTTP

extension VitalSync.Remote {
  struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "devices", abstract: "The devices logged in to this account on the server.",
      discussion: """
        Each login is one device, named by --device-name when it logged in (the host name unless
        given). 'vital remote revoke DEVICE' signs one out.

        Examples:
          vital remote devices
          vital remote devices --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let (app, _, client, remote) = try RemoteContext.open(global)
      let sessions = try await client.sessions(token: try RemoteContext.token(remote))
      try app.output.show(
        .array(
          sessions.map { s in
            .object([
              ("id", .string(s.id)), ("name", .string(s.deviceName)), ("first_seen", app.iso(s.created)),
              ("last_seen", app.iso(s.lastUsed)), ("this", .bool(s.current)),
            ])
          })
      ) {
        var table = TextTable(["id", "device", "first seen", "last seen", ""])
        for s in sessions {
          table.add([s.id, s.deviceName, app.human(s.created), app.human(s.lastUsed), s.current ? "this device" : ""])
        }
        return table.text
      }
    }
  }

  struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "revoke", abstract: "Sign a device out: its next call to the server is refused.",
      discussion: """
        DEVICE is a device's id (or its first four digits or more) or its name, as 'vital remote
        devices' lists them. The device keeps its own copy of the records; to sync again it logs
        in again. After losing a device, also consider 'vital remote passphrase' if the account is
        end-to-end encrypted.

        Examples:
          vital remote revoke old-laptop
          vital remote revoke 3f9a2c41 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The device's id or name.") var device: String

    func run() async throws {
      var (app, account, client, remote) = try RemoteContext.open(global)
      let token = try RemoteContext.token(remote)
      let session: SyncClient.Session
      do {
        session = try SyncClient.Session.named(device, in: try await client.sessions(token: token))
      } catch let error as DeviceLookupError {
        throw CLIError.needsInput(error.description)
      }
      try await client.revokeSession(id: session.id, token: token)
      if session.current {
        // This device signed itself out: its token is of no use any more.
        remote.token = nil
        try remote.save(app.db, accountID: account.id)
      }
      try app.output.show(
        .object([
          ("revoked", .string(session.id)), ("name", .string(session.deviceName)), ("this", .bool(session.current)),
        ])
      ) {
        "signed out \(session.deviceName) (\(session.id))" + (session.current ? "; this device must log in again" : "")
      }
    }
  }
}
