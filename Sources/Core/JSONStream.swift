import Foundation

/// A JSON document read from a stream in a fixed budget: its structure is walked byte by byte,
/// and only the values asked for (`raw()`) are held, each at most `maxValue` bytes. A file of
/// any size is then read in the memory of its largest value, not of the whole.
public struct JSONStream {
  public enum Failure: Error, Equatable {
    /// Not JSON where the walk was: with the byte offset.
    case malformed(at: Int)
    /// A value asked for is larger than the budget.
    case tooLarge(at: Int)
  }

  private let read: (Int) throws -> [UInt8]
  private var buffer: [UInt8] = []
  private var offset = 0
  private var atEnd = false
  /// Bytes before `buffer` began.
  private var passed = 0
  public let maxValue: Int

  /// `read(n)` gives up to n bytes a call, none at the end.
  public init(maxValue: Int, read: @escaping (Int) throws -> [UInt8]) {
    self.maxValue = maxValue
    self.read = read
  }

  /// Where the walk is, in bytes from the start.
  public var position: Int { passed + offset }

  private mutating func peek() throws -> UInt8? {
    if offset < buffer.count { return buffer[offset] }
    guard !atEnd else { return nil }
    passed += buffer.count
    buffer = try read(1 << 20)
    offset = 0
    if buffer.isEmpty {
      atEnd = true
      return nil
    }
    return buffer[0]
  }

  private mutating func next() throws -> UInt8 {
    guard let byte = try peek() else { throw Failure.malformed(at: position) }
    offset += 1
    return byte
  }

  public mutating func skipSpace() throws {
    while let byte = try peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
  }

  /// The next significant byte, not consumed; nil at the end.
  public mutating func peekSignificant() throws -> UInt8? {
    try skipSpace()
    return try peek()
  }

  private mutating func expect(_ byte: UInt8) throws {
    try skipSpace()
    guard try next() == byte else { throw Failure.malformed(at: position - 1) }
  }

  /// Calls `body` for each member of an object, positioned at its value; `body` reads the value
  /// with `raw()`, `skip()`, `members` or `elements`.
  public mutating func members(_ body: (inout JSONStream, String) throws -> Void) throws {
    try walk(open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) { stream in
      let start = stream.position
      let key = try stream.raw()
      var scanner: String?
      key.withUnsafeBufferPointer { bytes in
        var s = JSONScanner(bytes: bytes)
        if bytes.first == UInt8(ascii: "\""), let text = try? s.string(), s.index == bytes.count { scanner = text }
      }
      guard let name = scanner else { throw Failure.malformed(at: start) }
      try stream.expect(UInt8(ascii: ":"))
      try body(&stream, name)
    }
  }

  /// Calls `body` for each element of an array.
  public mutating func elements(_ body: (inout JSONStream) throws -> Void) throws {
    try walk(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
  }

  private mutating func walk(open: UInt8, close: UInt8, _ body: (inout JSONStream) throws -> Void) throws {
    try expect(open)
    if try peekSignificant() == close {
      offset += 1
      return
    }
    while true {
      try body(&self)
      try skipSpace()
      let byte = try next()
      if byte == close { return }
      guard byte == UInt8(ascii: ",") else { throw Failure.malformed(at: position - 1) }
    }
  }

  /// The next value's bytes, as they are in the document (for JSONScanner or JSONSerialization).
  public mutating func raw() throws -> [UInt8] {
    var out: [UInt8] = []
    try value(into: &out, limit: maxValue)
    return out
  }

  /// Steps over the next value without holding it, whatever its size.
  public mutating func skip() throws {
    var counter = Counter()
    try value(into: &counter, limit: .max)
  }

  /// After the document: only white space may follow.
  public mutating func end() throws {
    guard try peekSignificant() == nil else { throw Failure.malformed(at: position) }
  }

  private mutating func value<Sink: ByteSink>(into sink: inout Sink, limit: Int) throws {
    try skipSpace()
    let start = position
    guard let first = try peek() else { throw Failure.malformed(at: start) }
    guard first == UInt8(ascii: "\"") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
      // A number or a literal: up to the next delimiter (JSONScanner checks what it is).
      while let byte = try peek(), !Self.endsScalar(byte) {
        offset += 1
        sink.add(byte)
        guard sink.count <= limit else { throw Failure.tooLarge(at: start) }
      }
      guard sink.count > 0 else { throw Failure.malformed(at: start) }
      return
    }
    var depth = 0
    var inString = false
    var escaped = false
    repeat {
      let byte = try next()
      sink.add(byte)
      guard sink.count <= limit else { throw Failure.tooLarge(at: start) }
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      default: break
      }
    } while inString || depth > 0
  }

  private static func endsScalar(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
      || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}

/// Where `value(into:)` puts what it reads: an array, or nowhere (counting).
private protocol ByteSink {
  var count: Int { get }
  mutating func add(_ byte: UInt8)
}

extension Array: ByteSink where Element == UInt8 {
  mutating func add(_ byte: UInt8) { append(byte) }
}

/// Skipping holds only a count.
private struct Counter: ByteSink {
  var count = 0
  mutating func add(_ byte: UInt8) { count += 1 }
}
