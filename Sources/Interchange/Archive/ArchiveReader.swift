import Cryptography
import Foundation
import Records

/// The export's lines, read a MiB at a time from a file or stdin, each hashed as it is handed out
/// except the closing checksum line.
struct ArchiveReader {
  /// A record line holds at most a few values of 1 MiB each (an avatar's bytes in base64).
  static let maxLine = 64 << 20
  static let checksumPrefix = Array("\"sha256\":".utf8)

  private let read: (Int) throws -> [UInt8]
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  private let hash = SHA256Stream()
  private(set) var line = 0

  /// `read(n)` returns up to `n` bytes, none at the end.
  init(read: @escaping (Int) throws -> [UInt8]) {
    self.read = read
  }

  /// The next line without its line break, or nil at the end of the input.
  mutating func next() throws -> [UInt8]? {
    var searchFrom = start
    while true {
      if let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
        let text = Array(buffer[start..<newline])
        take(text, upTo: newline + 1)
        return text
      }
      searchFrom = buffer.count
      guard buffer.count - start <= Self.maxLine else { throw ArchiveError.lineTooLong(line: line + 1) }
      if atEnd {
        guard start < buffer.count else { return nil }
        let text = Array(buffer[start...])
        // Every line of an export ends in a line break; only the checksum's may have lost it.
        guard text.starts(with: Self.checksumPrefix) else { throw ArchiveError.truncated(line: line + 1) }
        take(text, upTo: buffer.count)
        return text
      }
      if start > 0 {
        buffer.removeSubrange(0..<start)
        searchFrom -= start
        start = 0
      }
      let chunk = try read(1 << 20)
      if chunk.isEmpty { atEnd = true } else { buffer += chunk }
    }
  }

  private mutating func take(_ text: [UInt8], upTo end: Int) {
    line += 1
    if !text.starts(with: Self.checksumPrefix) {
      buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }
    start = end
  }

  /// The SHA-256 of every line handed out before the checksum line.
  func digest() -> String { hash.finalizeHex() }
}
