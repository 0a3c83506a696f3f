internal import COpenSSL
import Foundation

/// AES-SIV (RFC 5297) from OpenSSL: deterministic authenticated encryption. The same plaintext
/// and associated data always give the same output, `V ‖ C` (a 16-byte synthetic IV, then the
/// ciphertext), and nothing else about the plaintext leaks but its length and its equality with
/// another. A 32-, 48- or 64-byte key selects AES-128-, AES-192- or AES-256-SIV.
public final class AESSIVKey {
  public static let tagLength = 16
  private let cipher: OpaquePointer
  /// Keyed once for each direction; every message starts from a copy, because OpenSSL's SIV
  /// context cannot be reset without keying it again (which fetches CMAC and runs the key
  /// schedule: most of the cost of sealing a short id).
  private let keyedEncryptor: CipherContext
  private let keyedDecryptor: CipherContext
  private let context: CipherContext

  public init(_ key: SymmetricKey) throws {
    let name: String
    switch key.byteCount {
    case 32: name = "AES-128-SIV"
    case 48: name = "AES-192-SIV"
    case 64: name = "AES-256-SIV"
    default: throw Crypto.CipherFailure.badLength("AES-SIV key")
    }
    guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else { throw Crypto.CipherFailure.openSSL("fetch \(name)") }
    self.cipher = cipher
    keyedEncryptor = try CipherContext()
    keyedDecryptor = try CipherContext()
    context = try CipherContext()
    try key.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self).baseAddress
      try Crypto.check(EVP_EncryptInit_ex2(keyedEncryptor.handle, cipher, bytes, nil, nil), "siv key")
      try Crypto.check(EVP_DecryptInit_ex2(keyedDecryptor.handle, cipher, bytes, nil, nil), "siv key")
    }
  }

  deinit { EVP_CIPHER_free(cipher) }

  /// `V ‖ C` for `plaintext` under the associated data, each element a separate input to S2V.
  public func seal(_ plaintext: [UInt8], associatedData: [[UInt8]]) throws -> [UInt8] {
    let ctx = context.handle
    try Crypto.check(EVP_CIPHER_CTX_copy(ctx, keyedEncryptor.handle), "siv copy")
    var length: Int32 = 0
    for data in associatedData {
      try Crypto.check(EVP_EncryptUpdate(ctx, nil, &length, data, Int32(data.count)), "siv aad")
    }
    var out = [UInt8](repeating: 0, count: Self.tagLength + plaintext.count + 16)
    try out.withUnsafeMutableBufferPointer { buffer in
      let body = buffer.baseAddress! + Self.tagLength
      try Crypto.check(EVP_EncryptUpdate(ctx, body, &length, plaintext, Int32(plaintext.count)), "siv encrypt")
      var final: Int32 = 0
      try Crypto.check(EVP_EncryptFinal_ex(ctx, body + Int(length), &final), "siv final")
      try Crypto.check(
        EVP_CIPHER_CTX_ctrl(ctx, Crypto.aeadGetTag, Int32(Self.tagLength), buffer.baseAddress), "siv tag")
    }
    out.removeLast(16)
    return out
  }

  /// The plaintext of `V ‖ C`, or nil when it does not authenticate under this key and data.
  public func open(_ sealed: [UInt8], associatedData: [[UInt8]]) -> [UInt8]? {
    guard sealed.count >= Self.tagLength else { return nil }
    let ctx = context.handle
    let bodyCount = sealed.count - Self.tagLength
    let initialized = EVP_CIPHER_CTX_copy(ctx, keyedDecryptor.handle) == 1
    var tag = Array(sealed.prefix(Self.tagLength))
    guard initialized, EVP_CIPHER_CTX_ctrl(ctx, Crypto.aeadSetTag, Int32(Self.tagLength), &tag) == 1 else {
      return nil
    }
    var length: Int32 = 0
    for data in associatedData {
      guard EVP_DecryptUpdate(ctx, nil, &length, data, Int32(data.count)) == 1 else { return nil }
    }
    var out = [UInt8](repeating: 0, count: bodyCount + 16)
    let ok = out.withUnsafeMutableBufferPointer { buffer in
      sealed.withUnsafeBufferPointer { sealed in
        guard
          EVP_DecryptUpdate(
            ctx, buffer.baseAddress, &length, sealed.baseAddress! + Self.tagLength, Int32(bodyCount)) == 1
        else { return false }
        var final: Int32 = 0
        return EVP_DecryptFinal_ex(ctx, buffer.baseAddress! + Int(length), &final) == 1
      }
    }
    guard ok else { return nil }
    out.removeLast(16)
    return out
  }
}
