import Foundation

extension String {
  /// Without spaces and tabs at either end. Foundation's `trimmingCharacters` costs 30,000
  /// instructions a call on Linux, and a spreadsheet of results asks it for every field; most
  /// fields have none to trim.
  var withoutSpaces: String {
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return self }
    return trimmingCharacters(in: .whitespaces)
  }

  /// A decimal comma as a point (`12,5`).
  var withDecimalPoint: String {
    utf8.contains(UInt8(ascii: ",")) ? replacingOccurrences(of: ",", with: ".") : self
  }
}
