import Foundation

/// Email addresses as account names: trimmed, lowercased, and of a plausible shape.
public enum Email {
  public struct Invalid: Error, CustomStringConvertible {
    public var description: String { "that does not look like an email address; use a form like you@example.org" }
  }

  public static func normalize(_ text: String) throws -> String {
    let email = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard email.utf8.count <= 254, parts.count == 2,
      let local = parts.first, let domain = parts.last,
      !local.isEmpty, local.utf8.count <= 64,
      domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains(".."),
      !email.contains(where: {
        $0.isWhitespace || $0.isNewline || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false)
      })
    else { throw Invalid() }
    return email
  }
}
