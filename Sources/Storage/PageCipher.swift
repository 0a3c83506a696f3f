/// What seals and opens the pages of a database kept sealed at rest (`SealedPages`): Storage
/// knows where the pages of a database, its log and its journal are, not how a page is sealed.
public protocol PageCipher: AnyObject, Sendable {
  /// A sealer for one open file. A file belongs to one connection, so its sealer is used from
  /// one thread at a time.
  func makeSealer() throws -> any PageSealer
}

/// Seals pages for one open file.
public protocol PageSealer: AnyObject {
  /// Encrypts `page` in place and writes what opens it again (nonce and tag) to `seal`.
  func seal(_ page: UnsafeMutableRawBufferPointer, aad: UnsafeRawBufferPointer, seal: UnsafeMutableRawBufferPointer)
    -> Bool
  /// Decrypts `page` in place; false, with `page` in an unspecified state, when it does not
  /// authenticate.
  func open(_ page: UnsafeMutableRawBufferPointer, aad: UnsafeRawBufferPointer, seal: UnsafeRawBufferPointer) -> Bool
}
