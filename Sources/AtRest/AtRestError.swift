/// What can go wrong keeping a database sealed at rest, each with what to do next.
public enum AtRestError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Sealed, and nothing this command may use holds its key.
  case locked
  /// `vital unlock --for` ran out.
  case unlockExpired
  /// Sealed, the kernel keyring cannot keep keys here, and there is no terminal to ask on.
  case keyringUnavailable(reason: String)
  /// `vital unlock` where the keyring cannot keep the key.
  case cannotKeepKey(reason: String)
  case wrongPassphrase
  /// The passphrase in `VITAL_PASSPHRASE_FILE` does not open the database.
  case wrongPassphraseInFile(path: String)
  case wrongRecoveryKey
  case malformedRecoveryKey(String)
  case noRecoveryKey
  case notSealed
  case alreadySealed
  /// Neither half of the header reads (changed on the disk, or not a sealed database).
  case damagedHeader
  /// A header written by a later Vital.
  case newerHeader(version: Int)
  /// Another program has the database open, so it cannot be rewritten now.
  case inUse
  case passphraseFile(path: String, reason: String)
  case badDuration(String)
  /// A sealed copy that could not be checked after it was written: nothing was replaced.
  case copyFailed(reason: String)
  /// The server's store is sealed and no key file was given, or not the right one.
  case storeSealed
  case wrongKeyFile

  public var description: String {
    switch self {
    case .locked:
      return "the database is locked; run 'vital unlock'"
    case .unlockExpired:
      return "the database is locked: the time given to 'vital unlock --for' is over; run 'vital unlock' again"
    case .keyringUnavailable(let reason):
      return
        "the database is locked, and the kernel keyring cannot keep its key here (\(reason)); run the command on a terminal to be asked for the passphrase, or name a file holding it in VITAL_PASSPHRASE_FILE"
    case .cannotKeepKey(let reason):
      return
        "the kernel keyring cannot keep the key here (\(reason)): each command asks for the passphrase on a terminal instead, and scripts name a file holding it in VITAL_PASSPHRASE_FILE"
    case .wrongPassphrase:
      return
        "that passphrase does not open this database (a forgotten one is replaced with 'vital db recover')"
    case .wrongPassphraseInFile(let path):
      return
        "the passphrase in VITAL_PASSPHRASE_FILE '\(path)' does not open this database; put the right one on its first line"
    case .wrongRecoveryKey:
      return "that recovery key does not open this database; nothing was changed"
    case .malformedRecoveryKey(let reason):
      return
        "that is not a recovery key: \(reason); it is 28 letters and digits in groups of four, as 'vital db encrypt' printed it"
    case .noRecoveryKey:
      return "this database has no recovery key; only its passphrase opens it"
    case .notSealed:
      return "the database is not encrypted; 'vital db encrypt' encrypts it"
    case .alreadySealed:
      return "the database is already encrypted; 'vital db passphrase' changes its passphrase"
    case .damagedHeader:
      return
        "the database's header is damaged: neither copy of it reads, so no passphrase can open it; restore a backup"
    case .newerHeader(let version):
      return "the database was encrypted by a newer Vital (header version \(version)); upgrade Vital to open it"
    case .inUse:
      return "another program has the database open (vital web, a sync, a reminder?); stop it and try again"
    case .passphraseFile(let path, let reason):
      return "cannot read the passphrase from VITAL_PASSPHRASE_FILE '\(path)': \(reason)"
    case .badDuration(let text):
      return
        "'\(text)' is not a time Vital keeps a key for: a whole number and a unit, from 1s to 366d, e.g. 30m, 8h or 2d"
    case .storeSealed:
      return
        "the server's store is encrypted at rest; start it with --encrypt --key-file FILE, the file it was encrypted with"
    case .wrongKeyFile:
      return "the secret in --key-file does not open the server's store; give the file it was encrypted with"
    case .copyFailed(let reason):
      return "the new copy of the database did not check out (\(reason)); the database is as it was"
    }
  }
}
