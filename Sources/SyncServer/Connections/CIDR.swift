import Foundation

/// A block of addresses, `192.168.0.0/16` or `fd00::/8` (a bare address is a block of one):
/// which peers are trusted proxies (`vital serve --trusted-proxy`).
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
  let network: [UInt8]
  let prefix: Int

  public init?(_ text: String) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let bytes = Self.bytes(String(parts[0])) else { return nil }
    let bits = bytes.count * 8
    if parts.count == 2 {
      guard let prefix = Int(parts[1]), (0...bits).contains(prefix), parts[1].allSatisfy(\.isASCII) else { return nil }
      self.prefix = prefix
    } else {
      prefix = bits
    }
    network = Self.masked(bytes, prefix)
  }

  public var description: String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    network.withUnsafeBytes {
      _ = inet_ntop(network.count == 4 ? AF_INET : AF_INET6, $0.baseAddress, &buffer, socklen_t(buffer.count))
    }
    let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: text, as: UTF8.self) + "/\(prefix)"
  }

  /// Whether `address` (text, as a socket or a header gives it) lies in the block. An IPv4
  /// address written as IPv6 (`::ffff:10.0.0.1`) is read as IPv4.
  public func contains(_ address: String) -> Bool {
    guard let bytes = Self.bytes(address), bytes.count == network.count else { return false }
    return Self.masked(bytes, prefix) == network
  }

  static func bytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
    let bytes = withUnsafeBytes(of: &v6) { Array($0) }
    if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff { return Array(bytes[12...]) }
    return bytes
  }

  static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
    bytes.enumerated().map { index, byte in
      let keep = max(0, min(8, prefix - index * 8))
      return keep == 0 ? 0 : byte & UInt8(truncatingIfNeeded: 0xff << (8 - keep))
    }
  }
}
