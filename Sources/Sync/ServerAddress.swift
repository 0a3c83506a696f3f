import Foundation

/// What a server URL says about the way to it.
public enum ServerAddress {
  /// Whether passwords and records sent to `url` would cross networks unencrypted: plain
  /// `http` to a host that is neither this machine (loopback) nor a private network (RFC 1918,
  /// RFC 4193 unique local and link-local addresses, `.local` names). A name other than
  /// `localhost` may resolve anywhere, so it counts as public.
  public static func travelsInTheClear(_ url: URL) -> Bool {
    guard url.scheme?.lowercased() == "http", var host = url.host?.lowercased() else { return false }
    host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    if host == "localhost" || host.hasSuffix(".localhost") || host.hasSuffix(".local") { return false }
    if host.contains(":") {
      return
        !(host == "::1" || host.hasPrefix("fc") || host.hasPrefix("fd") || host.hasPrefix("fe8")
        || host.hasPrefix("fe9") || host.hasPrefix("fea") || host.hasPrefix("feb"))
    }
    let octets = host.split(separator: ".").compactMap { UInt8($0) }
    guard octets.count == 4, host.split(separator: ".").count == 4 else { return true }
    switch (octets[0], octets[1]) {
    case (127, _), (10, _), (192, 168), (169, 254): return false
    case (172, 16...31): return false
    default: return true
    }
  }
}
