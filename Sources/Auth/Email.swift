import Foundation

/// Email addresses as account names: trimmed, in Unicode NFC, lowercased, and of a plausible
/// shape, so that `e\u{301}x@...` and `\u{e9}x@...` (one address, typed two ways) are one account.
public enum Email {
  public struct Invalid: Error, CustomStringConvertible {
    public var description: String { "that does not look like an email address; use a form like you@example.org" }
  }

  public static func normalize(_ text: String) throws -> String {
    let email = text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
      .precomposedStringWithCanonicalMapping
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

  /// How Vital stored emails before NFC: trimmed and lowercased. An account whose NFC spelling
  /// was taken by another when stored emails were normalised keeps this one, and logs in by it:
  /// a login looks up this spelling first, then the normal form.
  public static func legacySpelling(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  /// Stored `(id, email)` pairs brought to their normal form: what to rename (`id`, new email)
  /// where the normal form is free, and the groups of ids left apart because two or more of
  /// them are one address in normal form. Nothing is merged: a person decides which to keep.
  public static func normalizing(_ stored: [(id: String, email: String)]) -> (
    renames: [(id: String, email: String)], duplicates: [[String]]
  ) {
    // Swift compares strings by canonical equivalence, SQLite by bytes: the bytes decide here.
    var taken = Set(stored.map { Array($0.email.utf8) })
    var renames: [(id: String, email: String)] = []
    var groups: [[UInt8]: [String]] = [:]
    for (id, email) in stored {
      let normal = (try? normalize(email)) ?? email
      groups[Array(normal.utf8), default: []].append(id)
      guard Array(normal.utf8) != Array(email.utf8), !taken.contains(Array(normal.utf8)) else { continue }
      renames.append((id, normal))
      taken.insert(Array(normal.utf8))
    }
    return (renames, groups.values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] })
  }
}
