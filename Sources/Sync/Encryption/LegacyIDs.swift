import Cryptography
import Foundation

/// Record ids as Vital sealed them before AES-SIV (`e1.`): an HMAC-SHA256 synthetic IV over
/// dataset and id, then AES-256-CTR. Devices still read them; nothing seals new ones (see
/// docs/sync-protocol.md, "Record ids").
struct LegacyIDs {
  let mac: HMACKey
  let cipher: AESCTRKey

  init(_ key: DataKey) throws {
    mac = try HMACKey(key.legacyIDMAC)
    cipher = try AESCTRKey(key.legacyIDCipher)
  }

  static let prefix = "e1."

  /// Nothing in Vital makes these any more: tests do, to stand for data an earlier Vital left.
  func seal(dataset: String, id: String) throws -> String {
    let iv = try syntheticIV(dataset: dataset, id: id)
    let body = try iv.withUnsafeBufferPointer { v in
      try Array(id.utf8).withUnsafeBufferPointer { try cipher.apply(iv: v, $0) }
    }
    var text = Array(Self.prefix.utf8)
    (iv + body).withUnsafeBufferPointer { Base64.encode($0, url: true, into: &text) }
    return String(decoding: text, as: UTF8.self)
  }

  func open(dataset: String, raw: [UInt8]) throws -> String {
    guard raw.count > 16 else { throw EncryptionError.tampered(dataset: dataset) }
    let body = try raw.withUnsafeBufferPointer { r in
      try cipher.apply(iv: UnsafeBufferPointer(rebasing: r.prefix(16)), UnsafeBufferPointer(rebasing: r.dropFirst(16)))
    }
    guard let id = String(validating: body, as: UTF8.self),
      Crypto.constantTimeEqual(try syntheticIV(dataset: dataset, id: id), Array(raw.prefix(16)))
    else { throw EncryptionError.tampered(dataset: dataset) }
    return id
  }

  func syntheticIV(dataset: String, id: String) throws -> [UInt8] {
    var input = Array(dataset.utf8)
    input.append(0)
    input.append(contentsOf: id.utf8)
    return Array(try mac.mac(input).prefix(16))
  }
}
