import Core
import Foundation
import Testing

/// One escaper for all JSON Vital writes: the wire's `JSONText` and the document writer `JSON`
/// agree, a parser reads back what went in, and nothing that ends a line in JavaScript is left raw.
@Suite struct JSONTextTests {
  static let samples = [
    "plain", "", "quote \" and \\ backslash", "line\nbreak\ttab\rreturn", "\u{0}\u{1}\u{1f}", "line\u{2028}separator",
    "paragraph\u{2029}separator", "en – dash, € and … (E2 lead bytes)", "emoji 🩸 and ümlaut", "\u{e2}\u{80}",
    // Longer than a word of eight bytes, each kind of byte in the first word, the second, the tail.
    "eight by", "plain text longer than a word or two", "\"1234567 then plain", "0123456\\ then plain",
    "01234567\u{1f}89abcdef", "0123456789abcdef\"", "0123456\u{2028}x", "0123456789ab\u{7f}\u{80}ÿ plain",
    // Runs between escapes: several, at either end, escapes side by side.
    "\"Mitte\", Haus 3", "\\", "\"\"\"", "a\u{2028}b\u{2029}c\"d\u{1}e – f", "plain run then \n\u{2029}",
  ]

  /// The reader finds where a string's plain run ends a word at a time: each kind of end (the
  /// closing quote, an escape, a raw control byte, which is refused) at each place of a first,
  /// second and third word, after ASCII and after bytes of several-byte characters.
  @Test(arguments: ["a", "ü", "🩸"]) func theReaderEndsAPlainRunAtEachPlaceOfAWord(_ filler: String) throws {
    func read(_ literal: String) throws -> JSONScanner.Node {
      var bytes = Array(literal.utf8) + Array(",1".utf8)
      return try bytes.withUnsafeMutableBufferPointer { buffer in
        var scanner = JSONScanner(bytes: UnsafeBufferPointer(buffer))
        return try scanner.value()
      }
    }
    for count in 0..<20 {
      let run = String(repeating: filler, count: count)
      for text in [run, run + "\"tail", run + "\\", run + "\n" + run] {
        guard case .string(let back) = try read(JSONText.quote(text)) else {
          Issue.record("not a string: \(text)")
          continue
        }
        #expect(back == text)
      }
      #expect(throws: JSONScanner.Malformed.self) { try read("\"" + run + "\u{1}x\"") }
    }
  }

  @Test(arguments: [0, 7, -1, 10, -10, 1_234_567_890_123, Int64.max, Int64.min, Int64.min + 1])
  func integersAreWrittenAsTheirDecimalText(_ n: Int64) {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    JSONText.appendInteger(n, to: &bytes)
    #expect(String(decoding: bytes.dropFirst(), as: UTF8.self) == String(n))
  }

  @Test(arguments: samples) func theWriterAndTheWireEscapeAlike(_ text: String) throws {
    let quoted = JSONText.quote(text)
    #expect(JSON.string(text).serialized() == quoted)
    var bytes: [UInt8] = []
    JSONText.appendQuoted(text, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == quoted)
    #expect(!quoted.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 || $0.value < 0x20 })
    let parsed = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
    #expect(parsed == [text])
  }
}
