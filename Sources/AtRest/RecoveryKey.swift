import Cryptography

/// The second way into a sealed database, shown once when it is encrypted: 28 symbols of
/// Crockford's base 32 (140 random bits) in groups of four, read back whatever the case, with
/// or without the dashes, O read as 0 and I or L as 1.
public struct RecoveryKey: Equatable, Sendable, CustomStringConvertible {
  static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
  static let length = 28

  /// The symbols without separators, upper case.
  let symbols: String

  public static func random() throws -> RecoveryKey {
    // 256 is a multiple of 32, so each byte's low five bits are uniform.
    var bytes = try Crypto.randomBytes(length)
    defer { Crypto.cleanse(&bytes) }
    return RecoveryKey(symbols: String(bytes.map { alphabet[Int($0 & 31)] }))
  }

  private init(symbols: String) { self.symbols = symbols }

  public init(parsing text: String) throws {
    var symbols = ""
    for character in text.uppercased() where !"- \t".contains(character) {
      let read: Character =
        switch character {
        case "O": "0"
        case "I", "L": "1"
        default: character
        }
      guard Self.alphabet.contains(read) else {
        throw AtRestError.malformedRecoveryKey("'\(character)' is not one of its symbols")
      }
      symbols.append(read)
    }
    guard symbols.count == Self.length else {
      throw AtRestError.malformedRecoveryKey("it has \(symbols.count) symbols, not \(Self.length)")
    }
    self.symbols = symbols
  }

  /// `XXXX-XXXX-…`, seven groups.
  public var description: String {
    let characters = Array(symbols)
    return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<min($0 + 4, characters.count)]) }
      .joined(separator: "-")
  }
}
