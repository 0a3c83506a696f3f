import Cryptography
import Foundation
import Storage

/// The header of a sealed database (docs/at-rest.md): what opens its data key, in two halves
/// (slots) of `SealedPages.slotSize` bytes before the first page. A change writes the slot not
/// in use, with the next generation, so that a crash while writing leaves the other one whole,
/// then the other slot the same; the newest slot that reads is the header.
public struct AtRestHeader: Equatable, Sendable {
  public static let version: UInt8 = 1

  /// The data key wrapped by a key that scrypt derives from the passphrase.
  public struct PassphraseWrap: Equatable, Sendable {
    public var logN: UInt8
    public var r: UInt8
    public var p: UInt8
    public var salt: [UInt8]
    public var sealed: [UInt8]
  }

  /// The data key wrapped by a key derived from the recovery key.
  public struct RecoveryWrap: Equatable, Sendable {
    public var salt: [UInt8]
    public var sealed: [UInt8]
  }

  /// Random, made once per database: names its key in the kernel keyring.
  public var databaseID: [UInt8]
  /// The first 8 bytes of HMAC-SHA256(data key, "vital-sealed-db key id").
  public var keyID: [UInt8]
  public var generation: UInt64
  public var passphrase: PassphraseWrap
  public var recovery: RecoveryWrap?

  static let saltSize = 16
  static let wrappedSize = 12 + 32 + 16
  static let checksumOffset = SealedPages.slotSize - 32

  /// The slot's bytes, its SHA-256 at the end.
  var slot: [UInt8] {
    var bytes = [UInt8](repeating: 0, count: SealedPages.slotSize)
    bytes.replaceSubrange(0..<16, with: SealedPages.magic)
    bytes[16] = Self.version
    bytes[17] = recovery == nil ? 0 : 1
    Self.put(UInt64(SealedPages.pageSize), into: &bytes, at: 20, size: 4)
    Self.put(UInt64(SealedPages.reserve), into: &bytes, at: 24, size: 4)
    Self.put(generation, into: &bytes, at: 28, size: 8)
    bytes.replaceSubrange(36..<52, with: databaseID)
    bytes.replaceSubrange(52..<60, with: keyID)
    bytes[60] = passphrase.logN
    bytes[61] = passphrase.r
    bytes[62] = passphrase.p
    bytes.replaceSubrange(64..<80, with: passphrase.salt)
    bytes.replaceSubrange(80..<140, with: passphrase.sealed)
    if let recovery {
      bytes.replaceSubrange(140..<156, with: recovery.salt)
      bytes.replaceSubrange(156..<216, with: recovery.sealed)
    }
    bytes.replaceSubrange(Self.checksumOffset..., with: Crypto.sha256(bytes[..<Self.checksumOffset]))
    return bytes
  }

  enum Reading: Equatable {
    case header(AtRestHeader)
    case newer(Int)
    case unreadable
  }

  /// One slot as read from the file.
  static func read(slot bytes: ArraySlice<UInt8>) -> Reading {
    let bytes = Array(bytes)
    guard bytes.count == SealedPages.slotSize, bytes.starts(with: SealedPages.magic),
      Crypto.sha256(bytes[..<checksumOffset]) == Array(bytes[checksumOffset...])
    else { return .unreadable }
    guard bytes[16] == version else { return bytes[16] > version ? .newer(Int(bytes[16])) : .unreadable }
    guard number(bytes, at: 20, size: 4) == SealedPages.pageSize, number(bytes, at: 24, size: 4) == SealedPages.reserve,
      bytes[17] <= 1
    else { return .unreadable }
    return .header(
      AtRestHeader(
        databaseID: Array(bytes[36..<52]), keyID: Array(bytes[52..<60]),
        generation: UInt64(number(bytes, at: 28, size: 8)),
        passphrase: PassphraseWrap(
          logN: bytes[60], r: bytes[61], p: bytes[62], salt: Array(bytes[64..<80]), sealed: Array(bytes[80..<140])),
        recovery: bytes[17] == 1 ? RecoveryWrap(salt: Array(bytes[140..<156]), sealed: Array(bytes[156..<216])) : nil))
  }

  private static func put(_ value: UInt64, into bytes: inout [UInt8], at offset: Int, size: Int) {
    for i in 0..<size { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - i))) }
  }

  private static func number(_ bytes: [UInt8], at offset: Int, size: Int) -> Int {
    bytes[offset..<offset + size].reduce(0) { $0 << 8 | Int($1) }
  }
}

extension AtRestHeader {
  /// The newest slot of the file at `path` that reads, and which slot it is.
  public static func read(fileAt path: String) throws -> (header: AtRestHeader, slot: Int) {
    guard SealedPages.isSealed(fileAt: path) else { throw AtRestError.notSealed }
    var best: (header: AtRestHeader, slot: Int)?
    var newer: Int?
    for (slot, reading) in try slots(fileAt: path).enumerated() {
      switch reading {
      case .header(let header):
        if best.map({ header.generation > $0.header.generation }) ?? true { best = (header, slot) }
      case .newer(let version): newer = version
      case .unreadable: break
      }
    }
    if let best { return best }
    if let newer { throw AtRestError.newerHeader(version: newer) }
    throw AtRestError.damagedHeader
  }

  /// The slots of the file at `path` that do not read (changed on the disk): the other one
  /// opens the database, and a passphrase change writes both again.
  public static func damagedSlots(fileAt path: String) throws -> [Int] {
    try slots(fileAt: path).enumerated().filter { $0.element == .unreadable }.map(\.offset)
  }

  /// Both slots of the file at `path` as read; one cut off by the file's end does not read.
  private static func slots(fileAt path: String) throws -> [Reading] {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw AtRestError.notSealed }
    defer { try? handle.close() }
    let bytes = [UInt8]((try? handle.read(upToCount: SealedPages.headerSize)) ?? Data())
    return (0..<2).map { slot in
      let start = slot * SealedPages.slotSize
      guard bytes.count >= start + SealedPages.slotSize else { return .unreadable }
      return read(slot: bytes[start..<start + SealedPages.slotSize])
    }
  }

  /// A new file at `path` holding this header in both slots and nothing else, synced.
  func create(at path: String) throws {
    let previous = umask(0o077)
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    umask(previous)
    guard fd >= 0 else { throw AtRestError.copyFailed(reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    let bytes = slot + slot
    let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    guard written == bytes.count, fsync(fd) == 0 else {
      throw AtRestError.copyFailed(reason: String(cString: strerror(errno)))
    }
  }

  /// Writes this header over `slot` of the file at `path` (the one not in use) and syncs it.
  func write(over slot: Int, at path: String) throws {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { throw AtRestError.copyFailed(reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    let bytes = self.slot
    let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(slot * SealedPages.slotSize)) }
    guard written == bytes.count, fsync(fd) == 0 else {
      throw AtRestError.copyFailed(reason: String(cString: strerror(errno)))
    }
  }

  /// How the kernel keyring names this database's key.
  public var keyringName: String { "vital:" + Crypto.hex(databaseID) }
}
