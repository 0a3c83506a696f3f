import ArgumentParser
import AtRest
import CLIApp
import CLICore
import Core
import Foundation

extension Vital.DB {
  struct Encrypt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "encrypt",
      abstract: "Encrypt the database at rest, in place, with a passphrase and a recovery key.",
      discussion: """
        Writes a sealed copy of the database beside it, checks it, and renames it over the \
        plain one: a crash at any moment leaves one complete database, plain or encrypted. \
        Every page (and the write-ahead log and journal) is then AES-256-GCM under a random \
        key that your passphrase wraps, and a recovery key, printed once, wraps too. Lose both \
        and nobody can open the database, Vital included. Stop 'vital web' and syncs first.

        Copies made before stay plain, and the old file's bytes may stay on the disk until \
        they are overwritten. Exports ('vital export', the report) are plain files by design.

        Examples:
          vital db encrypt
          vital db encrypt --passphrase-stdin < passphrase.txt
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: DatabasePassphraseOptions

    @OptionGroup var unlock: UnlockForOptions

    func run() async throws {
      let context = try AtRestContext.open(global)
      if context.database.isSealed { throw AtRestError.alreadySealed }
      // A home without a database yet gets one first, so that it is encrypted from the start.
      if !FileManager.default.fileExists(atPath: context.database.path) { _ = try App(global, command: nil) }
      let secret = try passphrase.new()
      let encrypted = try context.database.encrypt(passphrase: secret)
      let kept = context.keep(encrypted.key, header: try context.database.header(), seconds: unlock.seconds)
      let recovery = encrypted.recovery.map { "\($0)" } ?? ""
      try context.output.show(
        .object([
          ("encrypted", .bool(true)), ("path", .string(context.database.path)),
          ("recovery_key", .string(recovery)), ("unlocked_until", AtRestContext.json(kept)),
        ])
      ) {
        """
        encrypted \(context.database.path)

        Recovery key (shown this once; write it down and keep it apart from this computer):

            \(recovery)

        It opens the database when the passphrase is lost: 'vital db recover --recovery-key KEY'.
        \(context.unlockedLine(kept, seconds: unlock.seconds))
        """
      }
    }
  }

  struct Decrypt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "decrypt",
      abstract: "Write the encrypted database back as a plain SQLite file.",
      discussion: """
        Anyone who can read the data folder can then read every record. Asks first; the \
        database must be unlocked (or its passphrase given). Stop 'vital web' and syncs first.

        Examples:
          vital db decrypt
          vital db decrypt --yes
        """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
      let context = try AtRestContext.open(global)
      let header = try context.sealedHeader()
      try context.prepare()
      guard try Confirmation.ask("Store every record in the clear on this disk?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing was changed")
      }
      try context.database.decrypt()
      context.keyring.remove(header.keyringName)
      try context.output.show(.object([("encrypted", .bool(false)), ("path", .string(context.database.path))])) {
        "decrypted \(context.database.path): it is a plain SQLite file again; 'vital db encrypt' encrypts it"
      }
    }
  }

  struct Passphrase: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "passphrase",
      abstract: "Change the passphrase of the encrypted database.",
      discussion: """
        Asks for the current passphrase, then the new one twice (with --passphrase-stdin: two \
        lines, the current one first). The key and every page stay as they are: only the \
        header changes, and 'vital unlock' stays in force. Backups made before still open with \
        the passphrase they were made with.

        Examples:
          vital db passphrase
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: DatabasePassphraseOptions

    func run() async throws {
      let context = try AtRestContext.open(global)
      let header = try context.sealedHeader()
      let key = try AtRestKeys.open(header, passphrase: try passphrase.current("current passphrase", environment: [:]))
      try context.database.changePassphrase(key: key, to: try passphrase.new())
      try context.output.show(.object([("changed", .bool(true))])) { "the passphrase is changed" }
    }
  }

  struct Recover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "recover",
      abstract: "Set a new passphrase with the recovery key, when the passphrase is lost.",
      discussion: """
        The recovery key is the one 'vital db encrypt' printed; dashes, spaces and case do not \
        matter. Without --recovery-key it is asked for on the terminal, or with \
        --passphrase-stdin read from the first line of stdin, the new passphrase from the next. \
        The recovery key stays valid after.

        Examples:
          vital db recover --recovery-key 7KQ2-...
          vital db recover
          printf '%s\\n' "$KEY" "$NEW" | vital db recover --passphrase-stdin
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: DatabasePassphraseOptions

    @Option(help: "The recovery key 'vital db encrypt' printed.")
    var recoveryKey: String?

    @OptionGroup var unlock: UnlockForOptions

    func run() async throws {
      let context = try AtRestContext.open(global)
      let header = try context.sealedHeader()
      let text = try recoveryKey ?? passphrase.current("recovery key", environment: [:])
      let key = try AtRestKeys.open(header, recovery: try RecoveryKey(parsing: text))
      try context.database.changePassphrase(key: key, to: try passphrase.new())
      let kept = context.keep(key, header: header, seconds: unlock.seconds)
      try context.output.show(.object([("changed", .bool(true)), ("unlocked_until", AtRestContext.json(kept))])) {
        "the passphrase is changed\n" + context.unlockedLine(kept, seconds: unlock.seconds)
      }
    }
  }
}
