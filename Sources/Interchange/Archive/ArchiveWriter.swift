import Core
import Cryptography
import Foundation
import Records
import Storage

/// The export's bytes: buffered, hashed as they go, and closed by the hash of all before it.
struct ArchiveWriter {
  private var bytes: [UInt8] = []
  private let hash = SHA256Stream()
  private let sink: ([UInt8]) throws -> Void
  private static let flushAt = 1 << 20

  init(sink: @escaping ([UInt8]) throws -> Void) {
    self.sink = sink
    bytes.reserveCapacity(Self.flushAt + 4096)
  }

  mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func appendQuoted(_ text: String) { JSONText.appendQuoted(text, to: &bytes) }

  /// A column's value. Reals are written so that they read back as reals (`62.0`, `1e-05`);
  /// bytes as `{"base64": ...}`. SQLite can hold infinities that JSON cannot; they go as null.
  mutating func appendValue(_ value: DatabaseValue) {
    switch value {
    case .null: append("null")
    case .integer(let n): append(String(n))
    case .real(let d): append(d.isFinite ? "\(d)" : "null")
    case .text(let text): appendQuoted(text)
    case .blob(let data):
      append("{\"base64\":\"")
      append(data.base64EncodedString())
      append("\"}")
    }
  }

  mutating func flushIfFull() throws {
    if bytes.count >= Self.flushAt { try flush() }
  }

  private mutating func flush() throws {
    guard !bytes.isEmpty else { return }
    hash.update(bytes)
    try sink(bytes)
    bytes.removeAll(keepingCapacity: true)
  }

  /// Hashes what is left and writes the closing member.
  mutating func finish() throws {
    try flush()
    append("\"sha256\":\"\(hash.finalizeHex())\"}\n")
    try sink(bytes)
    bytes.removeAll()
  }
}
