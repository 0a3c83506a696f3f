/// Text bound for a terminal with its control characters shown, not obeyed: a place, a note or
/// a name that arrived by import or sync holding `ESC ] 0;…` (the window title), `ESC [2J` (clear
/// the screen) or `ESC ] 52;…` (write the clipboard) prints as `\x1b]0;…`. Tabs and line breaks
/// stay; so do the colour codes Vital itself writes on a terminal (`ESC [32m`), which can set a
/// colour and nothing else.
public enum TerminalText {
  public static func safe(_ text: String, keepColour: Bool) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
      let s = scalars[i]
      if keepColour, s == "\u{1B}", let end = colourEnd(scalars, from: i) {
        out.append(contentsOf: scalars[i...end])
        i = end + 1
        continue
      }
      if needsEscape(s) {
        let hex = String(s.value, radix: 16)
        out.append(
          contentsOf: (s.value <= 0xFF ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{\(hex)}").unicodeScalars)
      } else {
        out.append(s)
      }
      i += 1
    }
    return String(out)
  }

  /// C0 controls but tab and line feed, DEL, and the C1 controls (U+0080–U+009F, which some
  /// terminals obey as ESC sequences).
  static func needsEscape(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\t" && s != "\n") || s.value == 0x7F || (0x80...0x9F).contains(s.value)
  }

  /// The index of the `m` that ends a colour code (`ESC [` digits and `;` `m`) starting at `i`.
  private static func colourEnd(_ s: [Unicode.Scalar], from i: Int) -> Int? {
    guard i + 2 < s.count, s[i + 1] == "[" else { return nil }
    var j = i + 2
    while j < s.count, j - i < 16 {
      if s[j] == "m" { return j }
      guard ("0"..."9").contains(s[j]) || s[j] == ";" else { return nil }
      j += 1
    }
    return nil
  }
}
