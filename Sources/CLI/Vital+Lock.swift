import ArgumentParser
import AtRest
import CLICore
import Core
import Foundation

extension Vital {
  struct Unlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unlock",
      abstract: "Unlock the encrypted database for a while, so that commands run without asking.",
      discussion: """
        Asks for the passphrase once and keeps the database's key in the Linux kernel's user \
        keyring: every command of yours opens the database until the time given to --for is \
        over (8 hours unless you say), 'vital lock' runs or the machine restarts. Nothing is \
        written to the disk.

        Where the keyring is unavailable (some containers block it), each command asks for the \
        passphrase on a terminal instead, and scripts name a file holding it in \
        VITAL_PASSPHRASE_FILE. VITAL_KEYRING=none keeps keys out of the keyring.

        Examples:
          vital unlock
          vital unlock --for 30m
          vital unlock --passphrase-stdin < ~/.vital-passphrase
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: DatabasePassphraseOptions

    @OptionGroup var unlock: UnlockForOptions

    func run() async throws {
      let context = try AtRestContext.open(global)
      let header = try context.sealedHeader()
      if let reason = context.keyring.unavailableReason { throw AtRestError.cannotKeepKey(reason: reason) }
      let key = try AtRestKeys.open(header, passphrase: try passphrase.current(environment: context.environment))
      let kept = context.keep(key, header: header, seconds: unlock.seconds)
      if let reason = kept.reason { throw AtRestError.cannotKeepKey(reason: reason) }
      try context.output.show(.object([("unlocked", .bool(true)), ("until", AtRestContext.json(kept))])) {
        context.unlockedLine(kept, seconds: unlock.seconds)
      }
    }
  }

  struct Lock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lock",
      abstract: "Lock the encrypted database now: commands ask for 'vital unlock' again.",
      discussion: """
        Drops the key 'vital unlock' left in the kernel keyring. A command already running \
        finishes with the key it has.

        Examples:
          vital lock
        """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let context = try AtRestContext.open(global)
      let header = try context.sealedHeader()
      let removed = context.keyring.remove(header.keyringName)
      // The kernel keeps a key whose time ran out for a few minutes, unusable, before it drops it.
      let ranOut = !removed && { if case .expired = context.keyring.find(header.keyringName) { true } else { false } }()
      try context.output.show(.object([("locked", .bool(true)), ("was_unlocked", .bool(removed))])) {
        removed
          ? "locked: 'vital unlock' opens it again"
          : ranOut
            ? "it was locked already: the time given to 'vital unlock --for' is over"
            : "it was not unlocked; nothing to do"
      }
    }
  }
}
