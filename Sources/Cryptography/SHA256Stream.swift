internal import COpenSSL

/// SHA-256 over bytes that arrive a part at a time: a file too large to hold, hashed as it is
/// written or read.
public final class SHA256Stream {
  private let context: OpaquePointer

  public init() {
    // Allocation failure of a few hundred bytes is not recoverable here.
    guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
      fatalError("OpenSSL could not set up SHA-256")
    }
    self.context = context
  }

  deinit { EVP_MD_CTX_free(context) }

  public func update(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count > 0 else { return }
    _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
  }

  public func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The digest in lower-case hex; the stream is spent after it.
  public func finalizeHex() -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    _ = EVP_DigestFinal_ex(context, &digest, &length)
    return Crypto.hex(digest)
  }
}
