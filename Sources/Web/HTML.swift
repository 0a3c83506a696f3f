import Core

/// A piece of HTML. Text interpolated into it is escaped unless it is itself `HTML`, so a note
/// holding `<script>` shows as text wherever a page puts it: escaping is what happens by default,
/// not what a page remembers to do.
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
  public private(set) var text: String

  public init(stringLiteral value: String) { text = value }

  public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

  /// Markup built elsewhere and known to be safe (a chart drawn by Views, which escapes its own text).
  public init(trusted text: String) { self.text = text }

  public var description: String { text }

  public static func + (a: HTML, b: HTML) -> HTML { HTML(trusted: a.text + b.text) }

  /// Text as it may stand in an element or a quoted attribute.
  public static func escape(_ text: String) -> String { HTMLText.escape(text) }

  public struct StringInterpolation: StringInterpolationProtocol {
    var text = ""

    public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity * 2) }

    public mutating func appendLiteral(_ literal: String) { text += literal }

    public mutating func appendInterpolation(_ value: String) { text += HTML.escape(value) }

    public mutating func appendInterpolation(_ value: Int) { text += String(value) }

    public mutating func appendInterpolation(_ value: HTML) { text += value.text }

    public mutating func appendInterpolation(_ values: [HTML]) { for value in values { text += value.text } }
  }
}

extension Array where Element == HTML {
  public func joined() -> HTML { HTML(trusted: map(\.text).joined()) }
}
