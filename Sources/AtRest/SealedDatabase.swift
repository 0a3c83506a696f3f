import Auth
import Cryptography
import Foundation
import Storage

/// A database file that is sealed at rest, or is about to be: what `vital db encrypt`,
/// `decrypt`, `passphrase`, `recover` and `check` and `vital unlock` do to it. A rewrite of the
/// whole file goes to a copy beside it, checked, then renamed over it, so that a crash at any
/// moment leaves one complete database, plain or sealed.
public struct SealedDatabase: Sendable {
  public let path: String

  public init(path: String) { self.path = path }

  public var isSealed: Bool { SealedPages.isSealed(fileAt: path) }

  public func header() throws -> AtRestHeader { try AtRestHeader.read(fileAt: path).header }

  /// From now on this process opens the database with `key`, which must be the one its header
  /// names.
  public func use(_ key: SymmetricKey) throws {
    guard AtRestKeys.isKey(key, of: try header()) else { throw AtRestError.locked }
    try SealedPages.register(databaseAt: path, cipher: AESGCMPageCipher(key: key))
  }

  public struct Encrypted: Sendable {
    public let key: SymmetricKey
    public let recovery: RecoveryKey?
  }

  /// A new, empty sealed database at `path`, which must not exist: its header now, its pages
  /// with the first open.
  public func create(
    passphrase: String, withRecoveryKey: Bool = true, hasher: PasswordHasher = .standard
  ) throws -> Encrypted {
    let key = try SymmetricKey.random()
    let recovery = withRecoveryKey ? try RecoveryKey.random() : nil
    try AtRestKeys.header(dataKey: key, passphrase: passphrase, recovery: recovery, hasher: hasher).create(at: path)
    try use(key)
    return Encrypted(key: key, recovery: recovery)
  }

  /// Seals the plain database under a new random data key that `passphrase` (and a recovery
  /// key, made here and returned once) wraps. Refused while another program has it open.
  public func encrypt(
    passphrase: String, withRecoveryKey: Bool = true, hasher: PasswordHasher = .standard
  ) throws -> Encrypted {
    guard !isSealed else { throw AtRestError.alreadySealed }
    let key = try SymmetricKey.random()
    let recovery = withRecoveryKey ? try RecoveryKey.random() : nil
    let header = try AtRestKeys.header(dataKey: key, passphrase: passphrase, recovery: recovery, hasher: hasher)
    let copy = path + ".encrypting"
    try rewrite(into: copy) { source in
      try header.create(at: copy)
      try SealedPages.register(databaseAt: copy, cipher: AESGCMPageCipher(key: key))
      try source.vacuum(into: copy)
    }
    SealedPages.alias(databaseAt: path, sameAs: copy)
    SealedPages.forget(databaseAt: copy)
    return Encrypted(key: key, recovery: recovery)
  }

  /// Writes the sealed database back as an ordinary SQLite file; its key must be in use.
  public func decrypt() throws {
    guard isSealed else { throw AtRestError.notSealed }
    guard SealedPages.isRegistered(databaseAt: path) else { throw AtRestError.locked }
    let copy = path + ".decrypting"
    try rewrite(into: copy) { source in try source.vacuum(into: copy) }
    SealedPages.forget(databaseAt: path)
  }

  /// Wraps the data key `key` with a new passphrase: the header changes, not a page. The copy
  /// not in use is written first, so that a crash while writing it leaves the old header whole;
  /// then the other, so that no copy opens with the old passphrase any more (one changes a
  /// passphrase because it got out) and a copy damaged later falls back to the same header.
  public func changePassphrase(key: SymmetricKey, to passphrase: String, hasher: PasswordHasher = .standard) throws {
    let (header, slot) = try AtRestHeader.read(fileAt: path)
    guard AtRestKeys.isKey(key, of: header) else { throw AtRestError.wrongPassphrase }
    let rewrapped = try AtRestKeys.rewrapped(header, dataKey: key, passphrase: passphrase, hasher: hasher)
    try rewrapped.write(over: 1 - slot, at: path)
    try rewrapped.write(over: slot, at: path)
  }

  /// The pages of the file (not yet in its log) that do not open, numbered from 1.
  public func damagedPages() throws -> (pages: Int, damaged: [Int]) {
    try SealedPages.check(databaseAt: path)
  }

  /// Holds the database alone, lets `write` fill `copy` from it, checks the copy through a
  /// connection of its own and renames it over the database. Nothing is left of the copy when
  /// any step fails.
  private func rewrite(into copy: String, _ write: (Database) throws -> Void) throws {
    var options = Database.Options()
    options.create = false
    let source = try Database(path: path, options: options)
    guard try source.holdAlone() else { throw AtRestError.inUse }
    Self.removeLeftovers(of: copy)
    do {
      try write(source)
      let problems = try Database(path: copy).integrityProblems()
      guard problems.isEmpty else { throw AtRestError.copyFailed(reason: problems.prefix(3).joined(separator: "; ")) }
      try Self.sync(copy)
      guard rename(copy, path) == 0 else { throw AtRestError.copyFailed(reason: String(cString: strerror(errno))) }
      try Self.sync(
        (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
    } catch {
      Self.removeLeftovers(of: copy)
      SealedPages.forget(databaseAt: copy)
      throw error
    }
  }

  private static func removeLeftovers(of copy: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] { unlink(copy + suffix) }
  }

  private static func sync(_ path: String) throws {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw AtRestError.copyFailed(reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw AtRestError.copyFailed(reason: String(cString: strerror(errno))) }
  }
}
