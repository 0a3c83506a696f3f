import AtRest
import Auth
import Cryptography
import Foundation
import Storage
import Testing

/// scrypt at N = 2^10 instead of 2^17: the same format and code, fast enough to run often.
let quickHasher = PasswordHasher(logN: 10, r: 8, p: 1)
let passphrase = "correct horse battery staple"

/// A fresh folder under the system temp directory, removed when the value is released.
final class Folder {
  let path: String

  init() throws {
    var bytes = Array((NSTemporaryDirectory() + "/vital-at-rest-XXXXXX").utf8CString)
    guard let made = mkdtemp(&bytes) else { throw CocoaError(.fileWriteUnknown) }
    path = String(cString: made)
  }

  func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A new sealed database in `folder` that this process opens, and its data key.
func sealedDatabase(in folder: Folder, name: String = "sealed.sqlite") throws -> (path: String, key: SymmetricKey) {
  let path = folder.file(name)
  let made = try SealedDatabase(path: path).create(passphrase: passphrase, hasher: quickHasher)
  return (path, made.key)
}

/// A table of notes whose bodies hold `marker` and a number, `count` of them, written in
/// batches so that the log fills and pages spill.
func fillNotes(_ db: Database, marker: String, count: Int = 2000) throws {
  try db.execute("CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT")
  for batch in stride(from: 0, to: count, by: 500) {
    try db.transaction { db in
      for n in batch..<min(batch + 500, count) {
        try db.execute(
          "INSERT INTO note (body) VALUES (?)", "\(marker) \(n) " + String(repeating: "lorem ipsum ", count: 20))
      }
    }
  }
}

/// Whether the file at `path` holds `marker` anywhere in its bytes.
func fileHolds(_ path: String, _ marker: String) -> Bool {
  guard let data = FileManager.default.contents(atPath: path) else { return false }
  return data.range(of: Data(marker.utf8)) != nil
}

func fileSize(_ path: String) -> Int {
  (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}

/// Overwrites `count` bytes at `offset` of the file with `bytes`.
func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
  let handle = try #require(FileHandle(forUpdatingAtPath: path))
  defer { try? handle.close() }
  try handle.seek(toOffset: UInt64(offset))
  try handle.write(contentsOf: bytes)
}

func readBytes(_ path: String, at offset: Int, count: Int) throws -> [UInt8] {
  let handle = try #require(FileHandle(forReadingAtPath: path))
  defer { try? handle.close() }
  try handle.seek(toOffset: UInt64(offset))
  return [UInt8](try handle.read(upToCount: count) ?? Data())
}

/// The byte offset of page `n` (from 1) of a sealed database's file.
func pageOffset(_ n: Int) -> Int { SealedPages.headerSize + (n - 1) * SealedPages.pageSize }
