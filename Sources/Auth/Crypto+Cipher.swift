internal import COpenSSL
import Foundation

/// One-shot AES-256-GCM and HMAC-SHA256 for end-to-end encrypted sync (the sync key's wrapping
/// and derivation; per-value work uses the keyed contexts in CipherKeys.swift). Every OpenSSL
/// return code is checked in `check`.
extension Crypto {
  public enum CipherFailure: Error, CustomStringConvertible {
    case openSSL(String)

    public var description: String {
      switch self {
      case .openSSL(let step): return "encryption failed in OpenSSL (\(step)); try again"
      }
    }
  }

  public static let gcmNonceLength = 12
  public static let gcmTagLength = 16

  /// AES-256-GCM: the ciphertext followed by the 16-byte tag.
  public static func sealGCM(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], aad: [UInt8]) throws -> [UInt8] {
    precondition(key.count == 32 && nonce.count == gcmNonceLength)
    let context = try CipherContext()
    let ctx = context.handle
    try check(EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil), "init")
    try check(EVP_CIPHER_CTX_ctrl(ctx, gcmSetIVLength, Int32(nonce.count), nil), "nonce length")
    try check(EVP_EncryptInit_ex(ctx, nil, nil, key, nonce), "key")
    var length: Int32 = 0
    if !aad.isEmpty { try check(EVP_EncryptUpdate(ctx, nil, &length, aad, Int32(aad.count)), "aad") }
    var out = [UInt8](repeating: 0, count: plaintext.count + gcmTagLength)
    var written = 0
    if !plaintext.isEmpty {
      try check(EVP_EncryptUpdate(ctx, &out, &length, plaintext, Int32(plaintext.count)), "encrypt")
      written = Int(length)
    }
    try out.withUnsafeMutableBufferPointer { buffer in
      try check(EVP_EncryptFinal_ex(ctx, buffer.baseAddress! + written, &length), "final")
      written += Int(length)
      try check(
        EVP_CIPHER_CTX_ctrl(ctx, gcmGetTag, Int32(gcmTagLength), buffer.baseAddress! + written), "tag")
    }
    return Array(out[..<(written + gcmTagLength)])
  }

  /// Opens what `sealGCM` made; nil when the tag does not match (a wrong key, other additional
  /// data, or any changed bit).
  public static func openGCM(key: [UInt8], nonce: [UInt8], sealed: [UInt8], aad: [UInt8]) -> [UInt8]? {
    guard key.count == 32, nonce.count == gcmNonceLength, sealed.count >= gcmTagLength,
      let context = try? CipherContext()
    else { return nil }
    let ctx = context.handle
    let body = Array(sealed.dropLast(gcmTagLength))
    var tag = Array(sealed.suffix(gcmTagLength))
    var length: Int32 = 0
    guard EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil) == 1,
      EVP_CIPHER_CTX_ctrl(ctx, gcmSetIVLength, Int32(nonce.count), nil) == 1,
      EVP_DecryptInit_ex(ctx, nil, nil, key, nonce) == 1,
      aad.isEmpty || EVP_DecryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1
    else { return nil }
    var out = [UInt8](repeating: 0, count: body.count + 16)
    var written = 0
    if !body.isEmpty {
      guard EVP_DecryptUpdate(ctx, &out, &length, body, Int32(body.count)) == 1 else { return nil }
      written = Int(length)
    }
    guard EVP_CIPHER_CTX_ctrl(ctx, gcmSetTag, Int32(gcmTagLength), &tag) == 1 else { return nil }
    let ok = out.withUnsafeMutableBufferPointer { EVP_DecryptFinal_ex(ctx, $0.baseAddress! + written, &length) }
    guard ok == 1 else { return nil }
    return Array(out[..<(written + Int(length))])
  }

  public static func hmacSHA256(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    var length: UInt32 = 0
    _ = HMAC(EVP_sha256(), key, Int32(key.count), data, data.count, &digest, &length)
    return digest
  }

  /// Derives a scrypt key from a passphrase (the sync key's wrapping key).
  public static func scryptKey(passphrase: String, salt: [UInt8], logN: Int, r: Int, p: Int) throws -> [UInt8] {
    try scrypt(
      password: Array(passphrase.utf8), salt: salt, n: 1 << UInt64(logN), r: UInt64(r), p: UInt64(p), length: 32)
  }

  // The EVP_CTRL_* macros are aliases Swift does not import; their values are OpenSSL's ABI.
  static let gcmSetIVLength: Int32 = 0x9
  static let gcmGetTag: Int32 = 0x10
  static let gcmSetTag: Int32 = 0x11

  static func check(_ code: Int32, _ step: String) throws {
    guard code == 1 else { throw CipherFailure.openSSL(step) }
  }
}

/// One EVP cipher context, freed with its owner.
final class CipherContext {
  let handle: OpaquePointer

  init() throws {
    guard let handle = EVP_CIPHER_CTX_new() else { throw Crypto.CipherFailure.openSSL("context") }
    self.handle = handle
  }

  deinit { EVP_CIPHER_CTX_free(handle) }
}
