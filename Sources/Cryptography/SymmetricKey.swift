internal import COpenSSL
import Foundation

/// Secret key bytes in memory of their own, zeroed (`OPENSSL_cleanse`) when the last reference
/// goes. Nothing hands the bytes out as an array: they are read through `withUnsafeBytes`, and
/// copied out only by `dangerousCopy()` (to store the key, or to wrap it).
///
/// `@unchecked Sendable`: the bytes are written once, in the initializer, and only read after.
public final class SymmetricKey: @unchecked Sendable {
  private let storage: UnsafeMutableRawBufferPointer

  public var byteCount: Int { storage.count }

  /// A key from bytes a caller holds (read from storage, or unwrapped).
  public convenience init(bytes: some Collection<UInt8>) {
    self.init(byteCount: bytes.count) { $0.copyBytes(from: bytes) }
  }

  /// The only initializer: `fill` writes the bytes, and nothing writes them after.
  private init(byteCount: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 16)
    bytes.initializeMemory(as: UInt8.self, repeating: 0)
    do {
      try fill(bytes)
    } catch {
      bytes.deallocate()
      throw error
    }
    storage = bytes
  }

  /// A fresh random key from OpenSSL's generator.
  public static func random(byteCount: Int = 32) throws -> SymmetricKey {
    try SymmetricKey(byteCount: byteCount) { bytes in
      guard RAND_bytes(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(byteCount)) == 1 else {
        throw Crypto.Failure.random
      }
    }
  }

  deinit {
    OPENSSL_cleanse(storage.baseAddress, storage.count)
    storage.deallocate()
  }

  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(storage))
  }

  /// The key's bytes as an ordinary array, which is not zeroed: only to store or wrap the key.
  public func dangerousCopy() -> [UInt8] { Array(storage) }
}

extension Crypto {
  /// Overwrites `bytes` with zeros in a way the optimizer keeps (`OPENSSL_cleanse`): for the
  /// short-lived copies of a key that an API needs as an array.
  public static func cleanse(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
  }
}
