import Foundation

/// A stored password hash in PHC string form: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, with
/// standard Base64 without padding.
public struct ScryptHash: Equatable, Sendable {
  public var logN: Int
  public var r: Int
  public var p: Int
  public var salt: [UInt8]
  public var hash: [UInt8]

  /// Bounds that keep a hostile or corrupt stored string from asking for gigabytes.
  static let logNRange = 1...20
  static let rRange = 1...16
  static let pRange = 1...16

  public enum ParseError: Error, Equatable {
    case malformed(String)
  }

  public init(logN: Int, r: Int, p: Int, salt: [UInt8], hash: [UInt8]) {
    (self.logN, self.r, self.p, self.salt, self.hash) = (logN, r, p, salt, hash)
  }

  public init(phc: String) throws {
    let parts = phc.split(separator: "$", omittingEmptySubsequences: false)
    guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else {
      throw ParseError.malformed("not a $scrypt$ PHC string")
    }
    var params: [String: Int] = [:]
    for pair in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
      let kv = pair.split(separator: "=", omittingEmptySubsequences: false)
      guard kv.count == 2, let value = Int(kv[1]), value >= 0, params[String(kv[0])] == nil else {
        throw ParseError.malformed("bad parameter '\(pair)'")
      }
      params[String(kv[0])] = value
    }
    guard params.count == 3, let ln = params["ln"], let r = params["r"], let p = params["p"] else {
      throw ParseError.malformed("parameters must be ln, r and p")
    }
    guard Self.logNRange.contains(ln), Self.rRange.contains(r), Self.pRange.contains(p) else {
      throw ParseError.malformed("parameters out of range")
    }
    guard let salt = Self.decode(parts[3]), salt.count >= 8,
      let hash = Self.decode(parts[4]), hash.count >= 16
    else {
      throw ParseError.malformed("bad salt or hash encoding")
    }
    self.init(logN: ln, r: r, p: p, salt: salt, hash: hash)
  }

  public var phc: String {
    "$scrypt$ln=\(logN),r=\(r),p=\(p)$\(Self.encode(salt))$\(Self.encode(hash))"
  }

  /// The work factor, to compare a stored hash with the current policy.
  public var cost: Int { (1 << logN) * r * p }

  static func encode(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return text
  }

  static func decode(_ text: Substring) -> [UInt8]? {
    guard !text.isEmpty, text.count % 4 != 1,
      text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") })
    else { return nil }
    let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
    guard let data = Data(base64Encoded: padded) else { return nil }
    // Refuse non-canonical text (stray bits in the last character) so one hash has one spelling.
    guard encode(Array(data)) == text else { return nil }
    return Array(data)
  }
}
