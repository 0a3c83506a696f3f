import Auth
import Foundation

/// The account's 256-bit sync key. Values are sealed with it directly (AES-256-GCM); record ids
/// and blob nonces use keys derived from it with HMAC, so one secret serves every purpose
/// without two purposes sharing a key.
public struct DataKey: Sendable {
  public let bytes: [UInt8]
  let idMAC: [UInt8]
  let idCipher: [UInt8]
  let blobNonce: [UInt8]
  /// Names the key without revealing it: devices and the server compare keys by this.
  public let keyID: String

  public init(bytes: [UInt8]) throws {
    guard bytes.count == 32 else { throw EncryptionError.damagedKey }
    self.bytes = bytes
    let derive = try HMACKey(bytes)
    idMAC = try derive.mac(Array("vital e1 id mac".utf8))
    idCipher = try derive.mac(Array("vital e1 id cipher".utf8))
    blobNonce = try derive.mac(Array("vital e1 blob nonce".utf8))
    keyID = Crypto.hex(Array(try derive.mac(Array("vital e1 key id".utf8)).prefix(8)))
  }

  public static func generate() throws -> DataKey { try DataKey(bytes: try Crypto.randomBytes(32)) }
}
