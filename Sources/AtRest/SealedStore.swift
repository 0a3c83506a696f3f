import Foundation
import Storage

/// The sync server's SQLite store sealed at rest (`vital serve --data DIR --encrypt --key-file
/// F`): its data key wrapped by the secret in F as a passphrase wraps a home's, with no recovery
/// key (F is the operator's to keep, as a systemd credential is). A new store is made sealed; a
/// plain one is sealed in place at the first start with `--encrypt`.
public enum SealedStore {
  public enum Outcome: Sendable, Equatable {
    case plain, opened, created, encrypted
  }

  /// Makes the store at `path` openable by this process: sealed when `keyFile` names a secret,
  /// else it must be plain.
  @discardableResult
  public static func prepare(path: String, keyFile: String?) throws -> Outcome {
    let database = SealedDatabase(path: path)
    let exists = FileManager.default.fileExists(atPath: path)
    guard let keyFile else {
      if exists && database.isSealed { throw AtRestError.storeSealed }
      return .plain
    }
    let secret = try AtRestAccess.passphrase(fromFile: keyFile)
    if !exists {
      _ = try database.create(passphrase: secret, withRecoveryKey: false)
      return .created
    }
    if !database.isSealed {
      _ = try database.encrypt(passphrase: secret, withRecoveryKey: false)
      return .encrypted
    }
    do {
      try database.use(AtRestKeys.open(try database.header(), passphrase: secret))
    } catch AtRestError.wrongPassphrase {
      throw AtRestError.wrongKeyFile
    }
    return .opened
  }
}
