import Foundation

/// RFC 4180 CSV: fields quoted when they hold a comma, a quote or a line break; records end
/// with CRLF. The reader also takes LF endings and a leading UTF-8 byte order mark.
public enum CSV {
  public struct Record: Equatable, Sendable {
    /// The line the record starts on, counting from 1 (a quoted field may span lines).
    public let line: Int
    public let fields: [String]
  }

  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case notUTF8
    case unbalancedQuote(line: Int)
    case textAfterQuote(line: Int)
    case recordTooLong(line: Int, limit: Int)

    public var description: String {
      switch self {
      case .notUTF8: return "the file is not UTF-8 text; save it as UTF-8 CSV"
      case .unbalancedQuote(let line): return "line \(line): a quoted field is never closed"
      case .textAfterQuote(let line): return "line \(line): text after a closing quote; double quotes inside a field"
      case .recordTooLong(let line, let limit):
        return "line \(line): one record runs past \(limit >> 20) MiB; is a quote left open?"
      }
    }
  }

  public static func parse(_ data: Data) throws -> [Record] {
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    guard String(validating: bytes, as: UTF8.self) != nil else { throw ParseError.notUTF8 }
    var records: [Record] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var i = 0
    var quoted = false
    var fieldStarted = false
    func endField() {
      fields.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      fieldStarted = false
    }
    func endRecord() {
      endField()
      // A blank line is no record (a trailing newline at the end of the file, say).
      if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
      fields.removeAll(keepingCapacity: true)
    }
    while i < bytes.count {
      let b = bytes[i]
      if quoted {
        if b == UInt8(ascii: "\"") {
          if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
            field.append(b)
            i += 2
            continue
          }
          quoted = false
          i += 1
          // Only a separator or the end of the record may follow a closing quote.
          if i < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[i]) {
            throw ParseError.textAfterQuote(line: line)
          }
          continue
        }
        if b == UInt8(ascii: "\n") { line += 1 }
        field.append(b)
        i += 1
        continue
      }
      switch b {
      case UInt8(ascii: "\""):
        guard !fieldStarted && field.isEmpty else { throw ParseError.textAfterQuote(line: line) }
        quoted = true
        fieldStarted = true
      case UInt8(ascii: ","):
        endField()
      case UInt8(ascii: "\r") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n"):
        break  // the LF that follows ends the record
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        endRecord()
        line += 1
        recordLine = line
      default:
        field.append(b)
        fieldStarted = true
      }
      i += 1
    }
    if quoted { throw ParseError.unbalancedQuote(line: recordLine) }
    if fieldStarted || !field.isEmpty || !fields.isEmpty { endRecord() }
    return records
  }

  /// One field, quoted when it must be.
  public static func field(_ text: String) -> String {
    if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    return text
  }

  public static func record(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\r\n"
  }
}
