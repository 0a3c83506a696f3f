import Foundation

/// JSON string literals, written straight into a byte buffer or a String: the one escaper every
/// JSON Vital writes goes through (the wire, exports, `--json`). Besides what JSON requires it
/// escapes U+2028 and U+2029, which end a line in JavaScript, so that the text is safe inside a
/// script too.
public enum JSONText {
  /// Whether a byte may start something to escape: a control character, `"`, `\`, or the lead
  /// byte of U+2028/U+2029 (E2 80 A8/A9).
  @inline(__always) static func mayEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C || b == 0xE2 }

  /// Appends `s` as a JSON string literal; most need no escaping, so check first.
  public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
    var s = s
    s.withUTF8 { bytes in
      out.append(0x22)
      if !bytes.contains(where: mayEscape) {
        out.append(contentsOf: bytes)
      } else {
        var i = 0
        while i < bytes.count {
          let b = bytes[i]
          switch b {
          case 0x22: out += [0x5C, 0x22]
          case 0x5C: out += [0x5C, 0x5C]
          case 0x0A: out += [0x5C, UInt8(ascii: "n")]
          case 0x0D: out += [0x5C, UInt8(ascii: "r")]
          case 0x09: out += [0x5C, UInt8(ascii: "t")]
          case 0..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
          case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
            out += Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
            i += 2
          default: out.append(b)
          }
          i += 1
        }
      }
      out.append(0x22)
    }
  }

  public static func quote(_ s: String) -> String {
    if !s.utf8.contains(where: mayEscape) { return "\"" + s + "\"" }
    var out: [UInt8] = []
    appendQuoted(s, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
