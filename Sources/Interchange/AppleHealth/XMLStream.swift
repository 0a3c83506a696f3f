internal import CLibXML2
import Foundation
import Records

/// Element start and end events from libxml2's push parser: bytes go in as they are read (from
/// a file or a zip entry), so memory does not grow with the document. Only this file parses XML
/// (through `CLibXML2`, which loads libxml2 the first time it is needed).
final class XMLStream {
  /// A start tag's attributes as libxml2 hands them over: name, value, name, value, ..., NULL.
  struct Attributes {
    let raw: UnsafeMutablePointer<UnsafePointer<UInt8>?>?

    /// Every name with its value, as strings: for the rare elements (a workout, a correlation),
    /// not the millions of records.
    var values: [String: String] {
      var values: [String: String] = [:]
      forEach { key, value in values[String(cString: key)] = String(cString: value) }
      return values
    }

    /// Calls `body` with each name and value (NUL-terminated UTF-8, valid during the call only).
    func forEach(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> Void) {
      guard var p = raw else { return }
      while let name = p[0] {
        guard let value = p[1] else { return }
        body(name, value)
        p += 2
      }
    }
  }

  struct ParseError: Error {
    let line: Int
    let column: Int
    let message: String
  }

  /// libxml2 is not on this machine: the loader's reason.
  struct Unavailable: Error {
    let reason: String
  }

  /// Loads libxml2 if it is not yet: what an import checks before it starts.
  static func requireLibrary() throws {
    if let failure = vital_xml_load() { throw Unavailable(reason: String(cString: failure)) }
  }

  private var parser: OpaquePointer?
  private let onStart: (UnsafePointer<UInt8>, Attributes) -> Void
  private let onEnd: (UnsafePointer<UInt8>) -> Void
  /// Text between tags, in pieces as libxml2 hands them over (a GPX point's `<ele>`, `<time>`).
  private let onText: ((UnsafeBufferPointer<UInt8>) -> Void)?
  /// Set by a handler to stop the parse (a database error): `feed` then throws it.
  var failure: Error?

  init(
    onStart: @escaping (UnsafePointer<UInt8>, Attributes) -> Void, onEnd: @escaping (UnsafePointer<UInt8>) -> Void,
    onText: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
  ) {
    self.onStart = onStart
    self.onEnd = onEnd
    self.onText = onText
    // The parser lives no longer than this object (deinit frees it), so it holds it unretained.
    parser = vital_xml_new(
      Unmanaged.passUnretained(self).toOpaque(),
      { owner, name, attributes in
        guard let owner, let name else { return }
        XMLStream.owner(owner).onStart(name, Attributes(raw: attributes))
      },
      { owner, name in
        guard let owner, let name else { return }
        XMLStream.owner(owner).onEnd(name)
      },
      onText == nil
        ? nil
        : { owner, bytes, count in
          guard let owner, let bytes, count > 0 else { return }
          XMLStream.owner(owner).onText?(UnsafeBufferPointer(start: bytes, count: Int(count)))
        })
  }

  private static func owner(_ pointer: UnsafeMutableRawPointer) -> XMLStream {
    Unmanaged<XMLStream>.fromOpaque(pointer).takeUnretainedValue()
  }

  deinit { vital_xml_free(parser) }

  /// Parses the next bytes; `last` ends the document (a truncated one fails here).
  func feed(_ bytes: UnsafeRawBufferPointer, last: Bool = false) throws {
    guard let parser else {
      try Self.requireLibrary()
      throw ParseError(line: 0, column: 0, message: "libxml2 could not make a parser (out of memory)")
    }
    let status = bytes.withMemoryRebound(to: CChar.self) {
      vital_xml_feed(parser, $0.baseAddress, Int32($0.count), last ? 1 : 0)
    }
    if let failure { throw failure }
    if status != 0 { throw lastError(parser) }
  }

  func stop(_ error: Error) {
    failure = error
    if let parser { vital_xml_stop(parser) }
  }

  private func lastError(_ parser: OpaquePointer) -> ParseError {
    var line: Int32 = 0
    var column: Int32 = 0
    let message = vital_xml_last_error(parser, &line, &column).map { String(cString: $0) } ?? "not well-formed XML"
    return ParseError(
      line: Int(line), column: Int(column), message: message.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
