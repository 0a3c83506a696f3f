import ArgumentParser
import Auth
import CLIApp
import CLICore
import Core
import Foundation
import Storage
import Sync

/// `--passphrase-stdin`: the sync passphrase as a line on stdin (after the password, when a
/// command reads both).
struct PassphraseOptions: ParsableArguments {
  @Flag(help: "Read the sync passphrase as a line from stdin instead of asking on the terminal.")
  var passphraseStdin = false

  func read(confirm: Bool = false) throws -> String {
    try PasswordPrompt.read(
      "sync passphrase", fromStdin: passphraseStdin, confirm: confirm, kind: "passphrase", flag: "--passphrase-stdin")
  }

  /// A new passphrase: as long as a password must be (it guards every record on the server).
  func readNew() throws -> String {
    let text = try read(confirm: true)
    do { try PasswordPolicy.check(text) } catch {
      throw CLIError.needsInput("\(error)".replacingOccurrences(of: "password", with: "passphrase"))
    }
    return text
  }
}

extension VitalSync.Remote {
  struct Encrypt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "encrypt",
      abstract: "Turn on end-to-end encryption: from now on the server keeps only ciphertext.",
      discussion: """
        Syncs first, then makes a random sync key, stores it on the server wrapped by your \
        passphrase, and sends every record again, sealed; the server drops its cleartext copies. \
        Other devices ask for the passphrase on their next 'vital sync' or 'vital remote login'. \
        A forgotten passphrase cannot be recovered by anyone.

        Examples:
          vital remote encrypt
          echo "$PASSPHRASE" | vital remote encrypt --passphrase-stdin
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: PassphraseOptions

    func run() async throws {
      let (app, account, client, remote) = try RemoteContext.open(global)
      let token = try RemoteContext.token(remote)
      if client.syncKey != nil { throw EncryptionError.alreadyOn }
      if try await client.fetchKey(token: token) != nil { throw EncryptionError.otherKey }
      let secret = try passphrase.readNew()
      // Everything the server holds comes here first: its cleartext copies are about to go.
      _ = try await RemoteContext.sync(app, account, client, remote, token: token, passphrase: PassphraseOptions())
      _ = try await client.turnOnEncryption(passphrase: secret, token: token)
      let reloaded = try RemoteSettings.load(app.db, accountID: account.id) ?? remote
      let summary = try await RemoteContext.sync(app, account, client, reloaded, token: token, passphrase: passphrase)
      try app.output.show(.object([("encrypted", .bool(true)), ("pushed", .int(summary.pushed))])) {
        """
        end-to-end encryption is on for \(account.email): \(HumanText.count(summary.pushed, "record")) sent again, sealed.
        Other devices will ask for the passphrase. Without it nobody, not even the server's operator, can read them.
        """
      }
    }
  }

  struct Passphrase: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "passphrase",
      abstract: "Change the sync passphrase (the key it wraps, and every record, stay the same).",
      discussion: """
        Examples:
          vital remote passphrase
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: PassphraseOptions

    func run() async throws {
      let (app, _, client, remote) = try RemoteContext.open(global)
      let token = try RemoteContext.token(remote)
      guard client.syncKey != nil else { throw EncryptionError.notOn }
      try await client.changePassphrase(try passphrase.readNew(), token: token)
      try app.output.show(.object([("encrypted", .bool(true)), ("passphrase_changed", .bool(true))])) {
        "sync passphrase changed; other devices keep syncing, and a new device needs the new passphrase"
      }
    }
  }
}
