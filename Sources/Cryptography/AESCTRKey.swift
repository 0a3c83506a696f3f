internal import COpenSSL
import Foundation

/// AES-256-CTR under one key; encrypting and decrypting are the same.
public final class AESCTRKey {
  let context: CipherContext

  public init(_ key: SymmetricKey) throws {
    guard key.byteCount == 32 else { throw Crypto.CipherFailure.badLength("AES-256 key") }
    context = try CipherContext()
    try key.withUnsafeBytes { raw in
      try Crypto.check(
        EVP_EncryptInit_ex(context.handle, EVP_aes_256_ctr(), nil, raw.bindMemory(to: UInt8.self).baseAddress, nil),
        "ctr init")
    }
  }

  public func apply(iv: UnsafeBufferPointer<UInt8>, _ data: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
    guard iv.count == 16 else { throw Crypto.CipherFailure.badLength("CTR IV") }
    let ctx = context.handle
    try Crypto.check(EVP_EncryptInit_ex(ctx, nil, nil, nil, iv.baseAddress), "ctr iv")
    var out = [UInt8](repeating: 0, count: data.count + 16)
    var length: Int32 = 0
    var written = 0
    try out.withUnsafeMutableBufferPointer { buffer in
      if data.count > 0 {
        try Crypto.check(
          EVP_EncryptUpdate(ctx, buffer.baseAddress, &length, data.baseAddress, Int32(data.count)), "ctr")
        written = Int(length)
      }
      try Crypto.check(EVP_EncryptFinal_ex(ctx, buffer.baseAddress! + written, &length), "ctr final")
      written += Int(length)
    }
    out.removeLast(out.count - written)
    return out
  }
}
