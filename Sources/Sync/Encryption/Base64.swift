/// Base64 (RFC 4648) over bytes: Foundation's codec costs microseconds per short value, and
/// sync seals and opens every field of every record.
enum Base64 {
  static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  static let url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  static let standardValues = table(standard)
  static let urlValues = table(url)

  static func table(_ alphabet: [UInt8]) -> [UInt8] {
    var values = [UInt8](repeating: 0xFF, count: 256)
    for (i, c) in alphabet.enumerated() { values[Int(c)] = UInt8(i) }
    return values
  }

  /// Appends the encoding of `bytes`; the URL alphabet goes without padding.
  static func encode(_ bytes: UnsafeBufferPointer<UInt8>, url: Bool = false, into out: inout [UInt8]) {
    let alphabet = url ? Self.url : standard
    out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
    var i = 0
    while i + 3 <= bytes.count {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      out.append(alphabet[Int(n >> 18)])
      out.append(alphabet[Int(n >> 12 & 63)])
      out.append(alphabet[Int(n >> 6 & 63)])
      out.append(alphabet[Int(n & 63)])
      i += 3
    }
    let rest = bytes.count - i
    if rest > 0 {
      let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
      out.append(alphabet[Int(n >> 18)])
      out.append(alphabet[Int(n >> 12 & 63)])
      if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) }
      if !url { out.append(contentsOf: rest == 2 ? [UInt8(ascii: "=")] : [UInt8(ascii: "="), UInt8(ascii: "=")]) }
    }
  }

  /// The bytes, or nil for anything that is not canonical base64 of this alphabet (standard
  /// with padding, URL without).
  static func decode(_ text: UnsafeBufferPointer<UInt8>, url: Bool = false) -> [UInt8]? {
    var count = text.count
    if !url {
      guard count % 4 == 0 else { return nil }
      if count > 0, text[count - 1] == UInt8(ascii: "=") { count -= 1 }
      if count > 0, text[count - 1] == UInt8(ascii: "=") { count -= 1 }
    }
    guard count % 4 != 1 else { return nil }
    let values = url ? urlValues : standardValues
    var out = [UInt8]()
    out.reserveCapacity(count * 3 / 4)
    var i = 0
    while i + 4 <= count {
      let a = values[Int(text[i])]
      let b = values[Int(text[i + 1])]
      let c = values[Int(text[i + 2])]
      let d = values[Int(text[i + 3])]
      guard (a | b | c | d) != 0xFF else { return nil }
      let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
      out.append(UInt8(n >> 16))
      out.append(UInt8(n >> 8 & 0xFF))
      out.append(UInt8(n & 0xFF))
      i += 4
    }
    let rest = count - i
    if rest >= 2 {
      let a = values[Int(text[i])]
      let b = values[Int(text[i + 1])]
      let c = rest == 3 ? values[Int(text[i + 2])] : 0
      guard a != 0xFF, b != 0xFF, c != 0xFF else { return nil }
      let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
      out.append(UInt8(n >> 16))
      if rest == 3 { out.append(UInt8(n >> 8 & 0xFF)) }
    }
    return out
  }
}
