import Testing

@testable import SyncServer

@Suite struct CIDRTests {
  @Test func blocksOfBothFamiliesHoldTheirAddressesOnly() throws {
    let v4 = try #require(CIDR("10.1.0.0/16"))
    #expect(v4.contains("10.1.255.7") && !v4.contains("10.2.0.1") && !v4.contains("fd00::1"))
    #expect(v4.contains("::ffff:10.1.2.3"), "an IPv4 address written as IPv6 is IPv4")
    #expect(v4.description == "10.1.0.0/16")
    let host = try #require(CIDR("127.0.0.1"))
    #expect(host.contains("127.0.0.1") && !host.contains("127.0.0.2"))
    let v6 = try #require(CIDR("fd00::/8"))
    #expect(v6.contains("fd12:3456::1") && !v6.contains("fe80::1") && !v6.contains("10.0.0.1"))
    #expect(try #require(CIDR("10.1.2.3/20")).description == "10.1.0.0/20", "host bits are masked")
    #expect(try #require(CIDR("0.0.0.0/0")).contains("203.0.113.7"))
    let documentation = try #require(CIDR("192.0.2.0/24"))
    #expect(!documentation.contains("not an address"))
  }

  @Test func malformedBlocksAreRefused() {
    for text in ["", "10.0.0.0/33", "fd00::/129", "10.0.0/8", "10.0.0.0/", "10.0.0.0/-1", "example.org", "10.0.0.0/٨"] {
      #expect(CIDR(text) == nil, "\(text)")
    }
  }
}
