internal import COpenSSL
import Foundation

/// HMAC-SHA256 under one key, through OpenSSL 3's EVP_MAC: the key is set once.
public final class HMACKey {
  let mac: OpaquePointer
  let context: OpaquePointer

  public init(_ key: SymmetricKey) throws {
    guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { throw Crypto.CipherFailure.openSSL("hmac fetch") }
    guard let context = EVP_MAC_CTX_new(mac) else {
      EVP_MAC_free(mac)
      throw Crypto.CipherFailure.openSSL("hmac context")
    }
    self.mac = mac
    self.context = context
    let digest = strdup("SHA256")
    defer { free(digest) }
    var params = [
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_construct_end(),
    ]
    try key.withUnsafeBytes { raw in
      try Crypto.check(
        EVP_MAC_init(context, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &params), "hmac key")
    }
  }

  deinit {
    EVP_MAC_CTX_free(context)
    EVP_MAC_free(mac)
  }

  public func mac(_ parts: [UnsafeBufferPointer<UInt8>]) throws -> [UInt8] {
    // A nil key keeps the one set at init.
    try Crypto.check(EVP_MAC_init(context, nil, 0, nil), "hmac init")
    for part in parts where part.count > 0 {
      try Crypto.check(EVP_MAC_update(context, part.baseAddress, part.count), "hmac update")
    }
    var out = [UInt8](repeating: 0, count: 32)
    var length = 0
    try Crypto.check(EVP_MAC_final(context, &out, &length, 32), "hmac final")
    return out
  }

  public func mac(_ bytes: [UInt8]) throws -> [UInt8] {
    try bytes.withUnsafeBufferPointer { try mac([$0]) }
  }

  /// A key derived from this one for one purpose: HMAC(key, label), repeated with a counter
  /// byte (`label ‖ 1`, `label ‖ 2`) when more than 32 bytes are asked for.
  public func deriveKey(_ label: String, byteCount: Int = 32) throws -> SymmetricKey {
    var material: [UInt8]
    if byteCount <= 32 {
      material = try mac(Array(label.utf8))
    } else {
      material = []
      for counter in 1...UInt8((byteCount + 31) / 32) { material += try mac(Array(label.utf8) + [counter]) }
    }
    defer { Crypto.cleanse(&material) }
    return SymmetricKey(bytes: material.prefix(byteCount))
  }
}
