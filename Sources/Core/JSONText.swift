import Foundation

/// JSON string literals, written straight into a byte buffer or a String: the one escaper every
/// JSON Vital writes goes through (the wire, exports, `--json`). Besides what JSON requires it
/// escapes U+2028 and U+2029, which end a line in JavaScript, so that the text is safe inside a
/// script too.
public enum JSONText {
  /// Whether a byte may start something to escape: a control character, `"`, `\`, or the lead
  /// byte of U+2028/U+2029 (E2 80 A8/A9).
  @inline(__always) static func mayEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C || b == 0xE2 }

  /// Whether any byte of `bytes` may need escaping (`mayEscape`), looked at eight at a time:
  /// every name, clock and value of a sync request and of its answer passes here, and a byte
  /// at a time this check was the largest single cost of writing one. (Each test is exact for
  /// "some byte of the word": a byte below 0x20, or one equal to `"`, `\` or 0xE2.)
  @inline(__always) static func anyMayEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while i + 8 <= bytes.count {
        let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if endsPlainRun(word) || has(word, 0xE2) { return true }
        i += 8
      }
    }
    while i < bytes.count {
      if mayEscape(bytes[i]) { return true }
      i += 1
    }
    return false
  }

  /// Whether some byte of eight read as one word is below 0x20, `"` or `\`: what ends a JSON
  /// string's plain run, whether it is written (`anyMayEscape`) or read (`JSONScanner`).
  @inline(__always) static func endsPlainRun(_ word: UInt64) -> Bool { plainRunEnds(word) != 0 }

  /// The bytes of `word` (read little-endian) that end a plain run, each marked by its high bit.
  /// Marks above the lowest one may be false (a borrow from a marked byte); the lowest is always
  /// the first such byte, so the reader finds a string's end from it.
  @inline(__always) static func plainRunEnds(_ word: UInt64) -> UInt64 {
    marksBelow(word, 0x20) | marks(word, 0x22) | marks(word, 0x5C)
  }

  /// The bytes of `word` below `n` (n at most 0x80), marked as in `plainRunEnds`.
  @inline(__always) static func marksBelow(_ word: UInt64, _ n: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101 &* n) & ~word & 0x8080_8080_8080_8080
  }

  /// The bytes of `word` equal to `byte`, marked as in `plainRunEnds`.
  @inline(__always) static func marks(_ word: UInt64, _ byte: UInt64) -> UInt64 {
    marksBelow(word ^ (0x0101_0101_0101_0101 &* byte), 1)
  }

  /// Whether some byte of `word` is `byte`.
  @inline(__always) static func has(_ word: UInt64, _ byte: UInt64) -> Bool { marks(word, byte) != 0 }

  /// Appends `s` as a JSON string literal; most need no escaping, so check first.
  public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
    var s = s
    s.withUTF8 { bytes in
      out.append(0x22)
      if !anyMayEscape(bytes) {
        out.append(contentsOf: bytes)
      } else {
        // The plain runs between escapes are copied whole: a byte at a time, a place name with
        // quotes cost a push three times what one without them did.
        var run = 0
        var i = 0
        while i < bytes.count {
          let b = bytes[i]
          // Only the lead byte of U+2028 or U+2029 is escaped, not that of other characters.
          let separator =
            b == 0xE2 && i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)
          guard mayEscape(b), b != 0xE2 || separator else {
            i += 1
            continue
          }
          out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
          switch b {
          // Two appends, not an array literal each: place names with quotes are common.
          case 0x22, 0x5C:
            out.append(0x5C)
            out.append(b)
          case 0x0A:
            out.append(0x5C)
            out.append(UInt8(ascii: "n"))
          case 0x0D:
            out.append(0x5C)
            out.append(UInt8(ascii: "r"))
          case 0x09:
            out.append(0x5C)
            out.append(UInt8(ascii: "t"))
          case 0xE2:
            out += Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
            i += 2
          default: out += Array(String(format: "\\u%04x", b).utf8)
          }
          i += 1
          run = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
      }
      out.append(0x22)
    }
  }

  /// Appends `n` in decimal: a push writes a number or two for each record, and through a
  /// String each was a conversion and a copy.
  public static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
    if n < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = n.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  public static func quote(_ s: String) -> String {
    // Checked eight bytes at a time and written into a string sized once: a pull page quotes
    // two texts for each of its 5,000 records, and a byte at a time, with two concatenations,
    // that was a fifth of the server's work to answer it.
    var s = s
    if !s.withUTF8(anyMayEscape) {
      var quoted = ""
      quoted.reserveCapacity(s.utf8.count + 2)
      quoted += "\""
      quoted += s
      quoted += "\""
      return quoted
    }
    var out: [UInt8] = []
    appendQuoted(s, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
