/// An address to listen on, `HOST:PORT` (an IPv6 host in brackets or bare: the port follows
/// the last colon). Port 0 lets the system pick one.
public struct HostPort: Sendable, Equatable {
  public let host: String
  public let port: Int

  public init?(_ text: String) {
    guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
      let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
    else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty else { return nil }
    self.host = host
    self.port = port
  }

  /// The host as a URL writes it: an IPv6 address in brackets.
  public var urlHost: String { host.contains(":") ? "[\(host)]" : host }
}
