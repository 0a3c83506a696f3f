import Foundation

/// NIST SP 800-63B style: length only, no composition rules, no well-known passwords and none
/// that repeats one character (800-63B's "repetitive characters"), spaces alone included.
public enum PasswordPolicy {
  public static let minimumLength = 8
  public static let maximumLength = 1024

  public enum Violation: Error, Equatable, CustomStringConvertible {
    case tooShort
    case tooLong
    case common
    case repetitive

    public var description: String {
      switch self {
      case .tooShort:
        return "the password is too short; use at least \(minimumLength) characters (a few words work well)"
      case .tooLong: return "the password is too long; use at most \(maximumLength) characters"
      case .common: return "that password is on a list of commonly used passwords; choose another"
      case .repetitive:
        return "the password is one character over and over, or only spaces; choose another (a few words work well)"
      }
    }
  }

  /// Length is counted in Unicode code points after NFC normalisation, as NIST asks.
  public static func check(_ password: String) throws {
    let normalized = password.precomposedStringWithCanonicalMapping
    let length = normalized.unicodeScalars.count
    if length < minimumLength { throw Violation.tooShort }
    if length > maximumLength { throw Violation.tooLong }
    let scalars = normalized.unicodeScalars
    if scalars.allSatisfy({ $0 == scalars.first }) || scalars.allSatisfy(\.properties.isWhitespace) {
      throw Violation.repetitive
    }
    if isBlocked(normalized) { throw Violation.common }
  }

  /// zxcvbn's most common passwords of 8+ characters (scripts/update-blocklist), read once.
  static let blocklist: Set<Substring> = Set(
    String(decoding: PackageResources.common_passwords_txt, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: true))

  static func isBlocked(_ password: String) -> Bool {
    blocklist.contains(Substring(password.lowercased()))
  }
}
