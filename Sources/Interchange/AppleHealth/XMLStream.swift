internal import CLibXML2
import Foundation
import Records

/// Element start and end events from libxml2's push parser: bytes go in as they are read (from
/// a file or a zip entry), so memory does not grow with the document. Only this file calls libxml2.
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

  /// libxml2 must be set up once before parsers run on several threads.
  private static let initialised: Void = xmlInitParser()

  private var context: xmlParserCtxtPtr?
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
    _ = Self.initialised
    // Errors come back from xmlCtxtGetLastError; nothing is printed to stderr.
    xmlSetStructuredErrorFunc(nil) { _, _ in }
    var handler = xmlSAXHandler()
    xmlSAXVersion(&handler, 1)
    handler.characters =
      onText == nil
      ? nil
      : { context, bytes, count in
        guard let stream = XMLStream.owner(context), let bytes, count > 0 else { return }
        stream.onText?(UnsafeBufferPointer(start: bytes, count: Int(count)))
      }
    handler.ignorableWhitespace = nil
    handler.comment = nil
    handler.cdataBlock = nil
    handler.processingInstruction = nil
    handler.startElement = { context, name, attributes in
      guard let stream = XMLStream.owner(context), let name else { return }
      stream.onStart(name, Attributes(raw: UnsafeMutablePointer(mutating: attributes)))
    }
    handler.endElement = { context, name in
      guard let stream = XMLStream.owner(context), let name else { return }
      stream.onEnd(name)
    }
    // No user data: libxml2's own SAX2 callbacks (start and end of document, the DTD) expect the
    // parser context as their first argument. This object hangs off the context's _private.
    context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil)
    context?.pointee._private = Unmanaged.passUnretained(self).toOpaque()
    // No network, no external entities; libxml2's own limits on entity expansion stay on.
    xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
  }

  private static func owner(_ context: UnsafeMutableRawPointer?) -> XMLStream? {
    guard let owner = context?.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
    return Unmanaged<XMLStream>.fromOpaque(owner).takeUnretainedValue()
  }

  deinit {
    if let context {
      if let doc = context.pointee.myDoc { xmlFreeDoc(doc) }
      xmlFreeParserCtxt(context)
    }
  }

  /// Parses the next bytes; `last` ends the document (a truncated one fails here).
  func feed(_ bytes: UnsafeRawBufferPointer, last: Bool = false) throws {
    let status = bytes.withMemoryRebound(to: CChar.self) {
      xmlParseChunk(context, $0.baseAddress, Int32($0.count), last ? 1 : 0)
    }
    if let failure { throw failure }
    if status != 0 || context?.pointee.wellFormed == 0 { throw lastError() }
  }

  func stop(_ error: Error) {
    failure = error
    xmlStopParser(context)
  }

  private func lastError() -> ParseError {
    guard let error = xmlCtxtGetLastError(context) else {
      return ParseError(line: 0, column: 0, message: "not well-formed XML")
    }
    let message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed XML"
    return ParseError(
      line: Int(error.pointee.line), column: Int(error.pointee.int2),
      message: message.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
