import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, as a browser sends a form. A
/// field sent twice keeps its first value; a field that does not decode is left out.
public struct Form: Sendable, Equatable {
  private var fields: [String: String] = [:]

  public init(_ body: String) {
    for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = Self.decode(parts[0]), fields[name] == nil else { continue }
      fields[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
    }
  }

  public subscript(_ name: String) -> String? { fields[name] }

  /// `+` is a space, then percent escapes; nil for a broken escape or bytes that are not UTF-8.
  static func decode(_ text: Substring) -> String? {
    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
  }
}
