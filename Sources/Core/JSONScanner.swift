import Foundation

/// A byte-level JSON reader: one pass over the bytes, no intermediate objects unless asked
/// for (`value()`). JSONSerialization and JSONDecoder spend tens of microseconds per record; sync
/// pages and export files hold millions.
public struct JSONScanner {
  public let bytes: UnsafeBufferPointer<UInt8>
  public var index = 0
  var depth = 0

  public struct Malformed: Error {
    public init() {}
  }

  /// A value read whole. Numbers without a fraction or exponent are integers.
  public enum Node: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([Node])
    case object([(String, Node)])
  }

  public init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Calls `body` for each member of an object, positioned at its value.
  public mutating func members(_ body: (inout JSONScanner, String) throws -> Void) throws {
    try rawMembers { p, key in try body(&p, String(decoding: key, as: UTF8.self)) }
  }

  /// `members`, each key handed as its bytes: a reader that only compares keys (`is(_:_:)`),
  /// or keeps one String of a key that repeats, makes no String for each. A key with escapes is
  /// handed decoded.
  public mutating func rawMembers(_ body: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw Malformed() }
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
      let start = index + 1
      let end = plainEnd(from: start)
      if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
        index = end + 1
        try expect(UInt8(ascii: ":"))
        try body(&self, UnsafeBufferPointer(rebasing: bytes[start..<end]))
      } else {
        var key = try string()
        try expect(UInt8(ascii: ":"))
        try key.withUTF8 { key in try body(&self, key) }
      }
      skipSpace()
      guard index < bytes.count else { throw Malformed() }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return
      }
      throw Malformed()
    }
  }

  /// Whether a key's bytes (`rawMembers`) are `word`.
  public static func `is`(_ key: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    key.count == word.utf8CodeUnitCount && (key.isEmpty || memcmp(key.baseAddress!, word.utf8Start, key.count) == 0)
  }

  /// Calls `body` for each element of an array.
  public mutating func elements(_ body: (inout JSONScanner) throws -> Void) throws {
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { throw Malformed() }
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return
    }
    while true {
      try body(&self)
      skipSpace()
      guard index < bytes.count else { throw Malformed() }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return
      }
      throw Malformed()
    }
  }

  public mutating func skipSpace() {
    while index < bytes.count {
      let b = bytes[index]
      guard b <= 0x20, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
      index += 1
    }
  }

  public mutating func expect(_ byte: UInt8) throws {
    skipSpace()
    guard index < bytes.count, bytes[index] == byte else { throw Malformed() }
    index += 1
  }

  public mutating func value() throws -> Node {
    skipSpace()
    guard index < bytes.count else { throw Malformed() }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default: return try number()
    }
  }

  public mutating func literal(_ word: StaticString) throws {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw Malformed() }
    for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw Malformed() }
    index += count
  }

  mutating func object() throws -> Node {
    depth += 1
    defer { depth -= 1 }
    guard depth < 64 else { throw Malformed() }
    var members: [(String, Node)] = []
    try self.members { p, key in members.append((key, try p.value())) }
    return .object(members)
  }

  mutating func array() throws -> Node {
    depth += 1
    defer { depth -= 1 }
    guard depth < 64 else { throw Malformed() }
    var items: [Node] = []
    try elements { p in items.append(try p.value()) }
    return .array(items)
  }

  /// A string value that may repeat the one before (`string(repeating:)`).
  public struct Repeated {
    var text: String?
    /// `text` needs no escaping: read raw, its bytes are itself.
    var plain = false

    public init() {}
  }

  /// A string value, or the one before itself when the text is the same: a value read again and
  /// again (the clock of each field of a record) is then one String, not one each. Whether the
  /// one before needs escaping is worked out once, when it is first read, not each time it is
  /// met again.
  public mutating func string(repeating last: inout Repeated) throws -> String {
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
    if last.plain, var previous = last.text {
      let end = previous.withUTF8 { text -> Int? in
        let end = index + 1 + text.count
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""),
          text.isEmpty || memcmp(bytes.baseAddress! + index + 1, text.baseAddress!, text.count) == 0
        else { return nil }
        return end
      }
      if let end {
        index = end + 1
        return previous
      }
    }
    var text = try string()
    (last.text, last.plain) = (text, !text.withUTF8(JSONText.anyMayEscape))
    return text
  }

  public mutating func string() throws -> String {
    index += 1
    let start = index
    // Fast path: no escapes.
    index = plainEnd(from: start)
    guard index < bytes.count, bytes[index] >= 0x20 else { throw Malformed() }
    if bytes[index] == UInt8(ascii: "\"") {
      defer { index += 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
    var out = Array(bytes[start..<index])
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        index += 1
        return String(decoding: out, as: UTF8.self)
      }
      guard b >= 0x20 else { throw Malformed() }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        index += 1
        continue
      }
      guard index + 1 < bytes.count else { throw Malformed() }
      let e = bytes[index + 1]
      index += 2
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
          else { throw Malformed() }
          index += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw Malformed() }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw Malformed() }
        out.append(contentsOf: Array(String(Character(unicode)).utf8))
      default: throw Malformed()
      }
    }
    throw Malformed()
  }

  /// The place of the first byte from `start` on that ends a string's plain run: a quote, a
  /// backslash or a control byte (`bytes.count` when none does). Read eight bytes at a time:
  /// a sync page's strings (names, clocks, values) are most of its bytes.
  func plainEnd(from start: Int) -> Int {
    var i = start
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while i + 8 <= bytes.count {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        // The first byte that ends the run is the word's lowest one marked: most strings end
        // in their first or second word, and byte by byte their last bytes cost more than the
        // words before them.
        let ends = JSONText.plainRunEnds(word)
        if ends != 0 { return i + ends.trailingZeroBitCount / 8 }
        i += 8
      }
    }
    while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
    return i
  }

  mutating func hex4() throws -> UInt32 {
    guard index + 4 <= bytes.count else { throw Malformed() }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[index]
      let digit: UInt32
      switch b {
      case 48...57: digit = UInt32(b - 48)
      case 97...102: digit = UInt32(b - 87)
      case 65...70: digit = UInt32(b - 55)
      default: throw Malformed()
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  public mutating func number() throws -> Node {
    let start = index
    var integral = true
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    while index < bytes.count {
      let b = bytes[index]
      if b >= 48 && b <= 57 {
        index += 1
      } else if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") || b == UInt8(ascii: "+")
        || b == UInt8(ascii: "-")
      {
        integral = false
        index += 1
      } else {
        break
      }
    }
    // Up to 18 digits cannot overflow: read in place, without a String.
    let negative = start < bytes.count && bytes[start] == UInt8(ascii: "-")
    let digits = index - start - (negative ? 1 : 0)
    if integral, digits > 0, digits <= 18, digits == 1 || bytes[index - digits] != UInt8(ascii: "0") {
      var value: Int64 = 0
      for i in (index - digits)..<index { value = value * 10 + Int64(bytes[i] - 48) }
      return .int(negative ? -value : value)
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if integral, let i = Int64(text) { return .int(i) }
    guard let d = Double(text), d.isFinite else { throw Malformed() }
    return .double(d)
  }
}
