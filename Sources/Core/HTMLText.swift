/// The one escaper of text that goes into HTML or SVG (the report, its charts, `vital web`'s
/// pages): element content and quoted attribute values alike.
public enum HTMLText {
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }
}
