import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Sync

extension VitalSync.Remote {
  struct RotateKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rotate-key",
      abstract: "Replace the sync key after a device was lost: the old key opens nothing new.",
      discussion: """
        Syncs first, then makes a new random sync key, wrapped by the passphrase you give (the \
        same or a new one). The server destroys the old key and everything sealed under it in \
        one step, and this device sends every record again, sealed under the new key. Other \
        devices ask for the passphrase on their next sync; a device that holds only the old key \
        is refused and can read nothing written after the rotation. Sign the lost device out \
        first with 'vital remote revoke'.

        Examples:
          vital remote revoke old-phone && vital remote rotate-key
          echo "$PASSPHRASE" | vital remote rotate-key --passphrase-stdin --json
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: PassphraseOptions

    func run() async throws {
      let (app, account, client, remote) = try RemoteContext.open(global)
      let token = try RemoteContext.token(remote)
      guard let old = client.syncKey else { throw EncryptionError.notOn }
      let secret = try passphrase.readNew()
      // Everything the server holds comes here first: the rotation removes it there.
      _ = try await RemoteContext.sync(app, account, client, remote, token: token, passphrase: PassphraseOptions())
      let key = try await client.rotateKey(passphrase: secret, token: token)
      let reloaded = try RemoteSettings.load(app.db, accountID: account.id) ?? remote
      let summary = try await RemoteContext.sync(app, account, client, reloaded, token: token, passphrase: passphrase)
      try app.output.show(
        .object([
          ("rotated", .bool(true)), ("old_key_id", .string(old.key.keyID)), ("key_id", .string(key.key.keyID)),
          ("pushed", .int(summary.pushed)),
        ])
      ) {
        """
        new sync key for \(account.email): \(HumanText.count(summary.pushed, "record")) sent again, sealed under it; the old key is gone from the server.
        Other devices will ask for the passphrase.
        """
      }
    }
  }
}
