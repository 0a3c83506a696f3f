import Cryptography
import Foundation

/// The account's 256-bit sync key. Values are sealed with it directly (AES-256-GCM); record ids
/// and blob nonces use keys derived from it with HMAC, so one secret serves every purpose
/// without two purposes sharing a key. Every key here is zeroed when the last copy goes.
public struct DataKey: Sendable {
  public let key: SymmetricKey
  /// AES-256-SIV, for record ids (`e2.`).
  let idSIV: SymmetricKey
  /// The construction ids were sealed with before AES-SIV (`e1.`), kept to read them.
  let legacyIDMAC: SymmetricKey
  let legacyIDCipher: SymmetricKey
  let blobNonce: SymmetricKey
  /// Names the key without revealing it: devices and the server compare keys by this.
  public let keyID: String

  public init(key: SymmetricKey) throws {
    guard key.byteCount == 32 else { throw EncryptionError.damagedKey }
    self.key = key
    let derive = try HMACKey(key)
    idSIV = try derive.deriveKey("vital e2 id siv", byteCount: 64)
    legacyIDMAC = try derive.deriveKey("vital e1 id mac")
    legacyIDCipher = try derive.deriveKey("vital e1 id cipher")
    blobNonce = try derive.deriveKey("vital e1 blob nonce")
    keyID = Crypto.hex(Array(try derive.mac(Array("vital e1 key id".utf8)).prefix(8)))
  }

  /// The key from stored bytes.
  public init(bytes: [UInt8]) throws { try self.init(key: SymmetricKey(bytes: bytes)) }

  public static func generate() throws -> DataKey { try DataKey(key: .random()) }
}
