import Foundation

/// JSON string literals, written straight into a byte buffer or a String.
public enum JSONText {
  /// Appends `s` as a JSON string literal; most need no escaping, so check first.
  public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
    var s = s
    s.withUTF8 { bytes in
      out.append(0x22)
      if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
        out.append(contentsOf: bytes)
      } else {
        for b in bytes {
          switch b {
          case 0x22: out += [0x5C, 0x22]
          case 0x5C: out += [0x5C, 0x5C]
          case 0x0A: out += [0x5C, UInt8(ascii: "n")]
          case 0x0D: out += [0x5C, UInt8(ascii: "r")]
          case 0x09: out += [0x5C, UInt8(ascii: "t")]
          case 0..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
          default: out.append(b)
          }
        }
      }
      out.append(0x22)
    }
  }

  public static func quote(_ s: String) -> String {
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + s + "\"" }
    var out: [UInt8] = []
    appendQuoted(s, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
