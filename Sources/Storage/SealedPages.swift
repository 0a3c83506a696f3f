internal import CSQLite
internal import CSealedVFS
import Foundation
import Synchronization

/// Databases kept sealed at rest (docs/at-rest.md): once the cipher of a database is
/// registered, every `Database` this process opens on its path goes through the sealing VFS,
/// which seals each page of the file, its write-ahead log and its rollback journal. Opening a
/// sealed file without it is `StorageError.sealed`, before anything is read or written.
///
/// The file begins with a header of `headerSize` bytes that SQLite never sees and Storage
/// never writes: whoever registers the cipher owns it. Pages are `pageSize` bytes, of which
/// the last `reserve` hold the seal.
public enum SealedPages {
  public static let headerSize = Int(VITAL_SEALED_HEADER_SIZE)
  public static let pageSize = Int(VITAL_SEALED_PAGE_SIZE)
  public static let reserve = Int(VITAL_SEALED_RESERVE)
  public static let slotSize = Int(VITAL_SEALED_SLOT_SIZE)
  public static let aadSize = Int(VITAL_SEALED_AAD_SIZE)
  /// The first bytes of each half of the header.
  public static let magic: [UInt8] = Array("vital-sealed-db".utf8) + [0]

  /// Which file of a database a page belongs to; part of what each page is sealed with.
  public enum FileKind: Int32, Sendable {
    case database = 1
    case log = 2
    case journal = 3
  }

  /// The VFS of each registered database, by its canonical path.
  private static let registry = Mutex<[String: String]>([:])
  private static let registrations = Atomic<Int>(0)

  /// Opens the database at `path` (its log and journal too) through `cipher` from now on in
  /// this process. Returns the name of the VFS, for `Database.Options.vfs`-free opens of a
  /// second file with the same key (`alias`).
  @discardableResult
  public static func register(databaseAt path: String, cipher: any PageCipher) throws -> String {
    let name = "vital-sealed-\(registrations.add(1, ordering: .relaxed).newValue)"
    let box = Unmanaged.passRetained(CipherBox(cipher))
    let table = vital_page_cipher(
      state: box.toOpaque(), open_context: openContext, close_context: closeContext, seal: sealPage, open: openPage)
    let rc = vital_sealed_vfs_register(name, table)
    guard rc == SQLITE_OK else {
      box.release()
      throw StorageError.sqlite(code: rc, message: "the sealing VFS could not be registered", sql: nil)
    }
    registry.withLock { $0[canonical(path)] = name }
    return name
  }

  /// Opens the database at `path` with the cipher already registered for `original`: a copy of
  /// it (a backup) has the same header, so the same key.
  public static func alias(databaseAt path: String, sameAs original: String) {
    guard let name = vfsName(forDatabaseAt: original) else { return }
    registry.withLock { $0[canonical(path)] = name }
  }

  /// Forgets the cipher of the database at `path`: later opens in this process find it sealed.
  public static func forget(databaseAt path: String) {
    _ = registry.withLock { $0.removeValue(forKey: canonical(path)) }
  }

  /// Whether this process opens the database at `path` sealed.
  public static func isRegistered(databaseAt path: String) -> Bool { vfsName(forDatabaseAt: path) != nil }

  static func vfsName(forDatabaseAt path: String) -> String? {
    guard path != ":memory:", !path.isEmpty else { return nil }
    let key = canonical(path)
    return registry.withLock { $0[key] }
  }

  /// Whether the file at `path` begins with a sealed database's header (either half of it).
  public static func isSealed(fileAt path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let first = try? handle.read(upToCount: slotSize + magic.count) else { return false }
    let bytes = [UInt8](first)
    if bytes.starts(with: magic) { return true }
    return bytes.count >= slotSize + magic.count && Array(bytes[slotSize...]) == magic
  }

  /// Reads every page of the sealed database at `path` as it is in the file (not in its log)
  /// and opens it: the pages that do not open, numbered from 1, and how many there are.
  public static func check(databaseAt path: String) throws -> (pages: Int, damaged: [Int]) {
    guard let name = vfsName(forDatabaseAt: path) else { throw StorageError.sealed(path: path) }
    final class Found { var pages: [Int] = [] }
    let found = Found()
    let pages = withExtendedLifetime(found) {
      vital_sealed_check_file(
        name, path,
        { context, page in
          Unmanaged<Found>.fromOpaque(context!).takeUnretainedValue().pages.append(Int(page))
        }, Unmanaged.passUnretained(found).toOpaque())
    }
    guard pages >= 0 else {
      throw StorageError.cannotOpen(path: path, code: SQLITE_CANTOPEN, message: String(cString: strerror(errno)))
    }
    return (Int(pages), found.pages)
  }

  /// Seals `page` (`pageSize` bytes, its seal in the last `reserve`) as the VFS of the database
  /// at `path` seals a page of `kind` at `position`; for known-answer tests.
  public static func seal(_ page: inout [UInt8], kind: FileKind, position: Int64, databaseAt path: String) -> Bool {
    guard page.count == pageSize, let name = vfsName(forDatabaseAt: path) else { return false }
    return vital_sealed_seal_page(name, kind.rawValue, position, &page) == 1
  }

  /// Opens a page sealed so; false when it does not authenticate.
  public static func open(_ page: inout [UInt8], kind: FileKind, position: Int64, databaseAt path: String) -> Bool {
    guard page.count == pageSize, let name = vfsName(forDatabaseAt: path) else { return false }
    return vital_sealed_open_page(name, kind.rawValue, position, &page) == 1
  }

  /// Pages handed to the VFS with data where their seal goes, and temporary files it refused,
  /// in this process: both stay 0 unless SQLite does what this design rules out.
  public static var uncleanWrites: Int { Int(vital_sealed_unclean_writes()) }
  public static var refusedTemporaryFiles: Int { Int(vital_sealed_refused_temporary_files()) }

  /// The page that last failed to open on this thread, forgotten once read.
  static func takeFailure() -> (kind: FileKind, position: Int64)? {
    var position: Int64 = 0
    let kind = vital_sealed_take_failure(&position)
    return FileKind(rawValue: kind).map { ($0, position) }
  }

  /// The path with its folder's symbolic links resolved, so that two spellings of one file
  /// find the same registration; the file itself may not exist yet.
  static func canonical(_ path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    guard let resolved = realpath(folder, nil) else { return url.standardizedFileURL.path }
    defer { free(resolved) }
    return String(cString: resolved) + "/" + url.lastPathComponent
  }
}

private final class CipherBox {
  let cipher: any PageCipher
  init(_ cipher: any PageCipher) { self.cipher = cipher }
}

private final class SealerBox {
  let sealer: any PageSealer
  init(_ sealer: any PageSealer) { self.sealer = sealer }
}

private let openContext: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { state in
  guard let state else { return nil }
  let cipher = Unmanaged<CipherBox>.fromOpaque(state).takeUnretainedValue().cipher
  guard let sealer = try? cipher.makeSealer() else { return nil }
  return Unmanaged.passRetained(SealerBox(sealer)).toOpaque()
}

private let closeContext: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
  guard let context else { return }
  Unmanaged<SealerBox>.fromOpaque(context).release()
}

private let sealPage:
  @convention(c) (
    UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32, UnsafePointer<UInt8>?, Int32,
    UnsafeMutablePointer<UInt8>?
  ) -> Int32 = { context, page, length, aad, aadLength, seal in
    guard let context, let page, let aad, let seal else { return 0 }
    let sealer = Unmanaged<SealerBox>.fromOpaque(context).takeUnretainedValue().sealer
    let sealed = sealer.seal(
      UnsafeMutableRawBufferPointer(start: page, count: Int(length)),
      aad: UnsafeRawBufferPointer(start: aad, count: Int(aadLength)),
      seal: UnsafeMutableRawBufferPointer(start: seal, count: SealedPages.reserve))
    return sealed ? 1 : 0
  }

private let openPage:
  @convention(c) (
    UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32, UnsafePointer<UInt8>?, Int32,
    UnsafePointer<UInt8>?
  ) -> Int32 = { context, page, length, aad, aadLength, seal in
    guard let context, let page, let aad, let seal else { return 0 }
    let sealer = Unmanaged<SealerBox>.fromOpaque(context).takeUnretainedValue().sealer
    let opened = sealer.open(
      UnsafeMutableRawBufferPointer(start: page, count: Int(length)),
      aad: UnsafeRawBufferPointer(start: aad, count: Int(aadLength)),
      seal: UnsafeRawBufferPointer(start: seal, count: SealedPages.reserve))
    return opened ? 1 : 0
  }
