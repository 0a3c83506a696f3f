import Auth
import Cryptography
import Storage

/// How a sealed database's data key is wrapped in its header (docs/at-rest.md): by a key scrypt
/// derives from the passphrase, with the parameters and code of account passwords, and by one
/// derived from the recovery key. Each wrap is AES-256-GCM bound to the database and key.
public enum AtRestKeys {
  static let passphraseLabel = Array("vital-sealed-db passphrase".utf8)
  static let recoveryLabel = Array("vital-sealed-db recovery".utf8)
  static let keyIDLabel = Array("vital-sealed-db key id".utf8)

  /// Names the data key without giving it away: the first 8 bytes of its HMAC of a label.
  public static func keyID(of key: SymmetricKey) throws -> [UInt8] {
    Array(try HMACKey(key).mac(keyIDLabel).prefix(8))
  }

  /// A header for a new sealed database whose pages `dataKey` seals.
  public static func header(
    dataKey: SymmetricKey, passphrase: String, recovery: RecoveryKey?, hasher: PasswordHasher = .standard
  ) throws -> AtRestHeader {
    let databaseID = try Crypto.randomBytes(16)
    let keyID = try keyID(of: dataKey)
    var header = AtRestHeader(
      databaseID: databaseID, keyID: keyID, generation: 1,
      passphrase: try wrap(dataKey, passphrase: passphrase, databaseID: databaseID, keyID: keyID, hasher: hasher),
      recovery: nil)
    if let recovery {
      let salt = try Crypto.randomBytes(AtRestHeader.saltSize)
      let kek = try recoveryKey(recovery, salt: salt)
      header.recovery = .init(
        salt: salt, sealed: try seal(dataKey, with: kek, aad: recoveryAAD(databaseID, keyID, salt: salt)))
    }
    return header
  }

  /// The same header with the data key wrapped by a new passphrase, one generation on.
  public static func rewrapped(
    _ header: AtRestHeader, dataKey: SymmetricKey, passphrase: String, hasher: PasswordHasher = .standard
  ) throws -> AtRestHeader {
    var next = header
    next.passphrase = try wrap(
      dataKey, passphrase: passphrase, databaseID: header.databaseID, keyID: header.keyID, hasher: hasher)
    next.generation += 1
    return next
  }

  /// The data key, when `passphrase` is the database's.
  public static func open(_ header: AtRestHeader, passphrase: String) throws -> SymmetricKey {
    let wrap = header.passphrase
    // A header written by a hand other than Vital's must not ask for gigabytes.
    guard (10...20).contains(wrap.logN), (1...16).contains(wrap.r), (1...16).contains(wrap.p) else {
      throw AtRestError.damagedHeader
    }
    let hasher = PasswordHasher(logN: Int(wrap.logN), r: Int(wrap.r), p: Int(wrap.p))
    let kek = try hasher.key(for: passphrase, salt: wrap.salt)
    let aad = passphraseAAD(header.databaseID, header.keyID, wrap)
    return try opened(wrap.sealed, with: kek, aad: aad, header: header, wrong: .wrongPassphrase)
  }

  /// The data key, when `recovery` is the database's recovery key.
  public static func open(_ header: AtRestHeader, recovery: RecoveryKey) throws -> SymmetricKey {
    guard let wrap = header.recovery else { throw AtRestError.noRecoveryKey }
    let kek = try recoveryKey(recovery, salt: wrap.salt)
    let aad = recoveryAAD(header.databaseID, header.keyID, salt: wrap.salt)
    return try opened(wrap.sealed, with: kek, aad: aad, header: header, wrong: .wrongRecoveryKey)
  }

  /// Whether `key` is the data key this header names.
  public static func isKey(_ key: SymmetricKey, of header: AtRestHeader) -> Bool {
    (try? keyID(of: key)).map { Crypto.constantTimeEqual($0, header.keyID) } ?? false
  }

  private static func wrap(
    _ dataKey: SymmetricKey, passphrase: String, databaseID: [UInt8], keyID: [UInt8], hasher: PasswordHasher
  ) throws -> AtRestHeader.PassphraseWrap {
    var wrap = AtRestHeader.PassphraseWrap(
      logN: UInt8(hasher.logN), r: UInt8(hasher.r), p: UInt8(hasher.p),
      salt: try Crypto.randomBytes(AtRestHeader.saltSize), sealed: [])
    let kek = try hasher.key(for: passphrase, salt: wrap.salt)
    wrap.sealed = try seal(dataKey, with: kek, aad: passphraseAAD(databaseID, keyID, wrap))
    return wrap
  }

  private static func seal(_ dataKey: SymmetricKey, with kek: SymmetricKey, aad: [UInt8]) throws -> [UInt8] {
    var plain = dataKey.dangerousCopy()
    defer { Crypto.cleanse(&plain) }
    return try AESGCMKey(kek).seal(plain, aad: aad)
  }

  private static func opened(
    _ sealed: [UInt8], with kek: SymmetricKey, aad: [UInt8], header: AtRestHeader, wrong: AtRestError
  ) throws -> SymmetricKey {
    guard var plain = try AESGCMKey(kek).open(sealed, aad: aad) else { throw wrong }
    defer { Crypto.cleanse(&plain) }
    let key = SymmetricKey(bytes: plain)
    // The wrap authenticates, so a key that is not the one named was written so on purpose.
    guard isKey(key, of: header) else { throw AtRestError.damagedHeader }
    return key
  }

  private static func recoveryKey(_ recovery: RecoveryKey, salt: [UInt8]) throws -> SymmetricKey {
    var bytes = try HMACKey(SymmetricKey(bytes: Array(recovery.symbols.utf8))).mac(recoveryLabel + salt)
    defer { Crypto.cleanse(&bytes) }
    return SymmetricKey(bytes: bytes)
  }

  static func passphraseAAD(_ databaseID: [UInt8], _ keyID: [UInt8], _ wrap: AtRestHeader.PassphraseWrap) -> [UInt8] {
    passphraseLabel + databaseID + keyID + [wrap.logN, wrap.r, wrap.p] + wrap.salt
  }

  static func recoveryAAD(_ databaseID: [UInt8], _ keyID: [UInt8], salt: [UInt8]) -> [UInt8] {
    recoveryLabel + databaseID + keyID + salt
  }
}
