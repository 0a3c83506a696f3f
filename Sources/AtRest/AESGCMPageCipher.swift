import Cryptography
import Storage

/// Seals a database's pages with AES-256-GCM under its data key (docs/at-rest.md): each open
/// file gets OpenSSL contexts of its own, since a file is used from one thread at a time but
/// connections run on several.
final class AESGCMPageCipher: PageCipher {
  let key: SymmetricKey

  init(key: SymmetricKey) { self.key = key }

  func makeSealer() throws -> any PageSealer { Sealer(try AESGCMKey(key)) }

  final class Sealer: PageSealer {
    let gcm: AESGCMKey

    init(_ gcm: AESGCMKey) { self.gcm = gcm }

    func seal(_ page: UnsafeMutableRawBufferPointer, aad: UnsafeRawBufferPointer, seal: UnsafeMutableRawBufferPointer)
      -> Bool
    { gcm.sealInPlace(page, aad: aad, seal: seal) }

    func open(_ page: UnsafeMutableRawBufferPointer, aad: UnsafeRawBufferPointer, seal: UnsafeRawBufferPointer) -> Bool
    {
      gcm.openInPlace(page, aad: aad, seal: seal)
    }
  }
}
