import Cryptography
import Foundation
import Testing

@testable import Auth

@Suite struct ScryptTests {
  func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  /// RFC 7914 section 12.
  @Test(arguments: [
    (
      "", "", 16, 1, 1,
      "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
    ),
    (
      "password", "NaCl", 1024, 8, 16,
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
    ),
    (
      "pleaseletmein", "SodiumChloride", 16384, 8, 1,
      "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"
    ),
  ])
  func rfc7914Vectors(password: String, salt: String, n: UInt64, r: UInt64, p: UInt64, expected: String) throws {
    let key = try Crypto.scrypt(
      password: Array(password.utf8), salt: Array(salt.utf8), n: n, r: r, p: p, length: 64)
    #expect(hex(key) == expected)
  }

  @Test func theStandardCostNeedsMoreThanOpenSSLsDefaultMemoryCap() throws {
    #expect(throws: Crypto.Failure.self) {
      _ = try Crypto.scrypt(password: [1], salt: [2], n: 1 << 17, r: 8, p: 1, length: 32, maxMemory: 0)
    }
    #expect(try Crypto.scrypt(password: [1], salt: [2], n: 1 << 17, r: 8, p: 1, length: 32).count == 32)
  }

  @Test func phcStringsRoundTrip() throws {
    let hash = ScryptHash(logN: 17, r: 8, p: 1, salt: Array(0..<16), hash: Array(100..<132))
    #expect(hash.phc.hasPrefix("$scrypt$ln=17,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$"))
    #expect(hash.phc.split(separator: "$").suffix(2).allSatisfy { !$0.contains("=") }, "no Base64 padding")
    #expect(try ScryptHash(phc: hash.phc) == hash)
  }

  @Test(arguments: [
    "", "$", "$scrypt$", "scrypt$ln=17,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
    "$scrypt$ln=17,r=8$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$scrypt$ln=17,r=8,p=1,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$scrypt$ln=64,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$scrypt$ln=-1,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$scrypt$ln=17,r=99999999999999999999,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$scrypt$ln=17,r=8,p=1$!!!$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$scrypt$ln=17,r=8,p=1$AAECAwQFBgcICQoLDA0ODw==$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    "$scrypt$ln=17,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$",
    "$scrypt$ln=17,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8$extra",
    "$scrypt$ln=17,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg9",
  ])
  func malformedPHCStringsAreErrorsNotCrashes(text: String) {
    #expect(throws: ScryptHash.ParseError.self) { _ = try ScryptHash(phc: text) }
    #expect(throws: ScryptHash.ParseError.self) {
      _ = try PasswordHasher(logN: 10, r: 8, p: 1).verify("x", against: text)
    }
  }

  @Test func verifyAcceptsTheRightPasswordOnly() throws {
    let hasher = PasswordHasher(logN: 10, r: 8, p: 1)
    let phc = try hasher.hash("correct horse battery staple")
    #expect(phc.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
    #expect(try hasher.verify("correct horse battery staple", against: phc))
    #expect(try !hasher.verify("correct horse battery stapler", against: phc))
    #expect(try hasher.hash("same") != hasher.hash("same"), "each hash has its own salt")
  }

  @Test func composedAndDecomposedAccentsAreTheSamePassword() throws {
    let hasher = PasswordHasher(logN: 10, r: 8, p: 1)
    let phc = try hasher.hash("caf\u{E9} au lait")
    #expect(try hasher.verify("cafe\u{301} au lait", against: phc))
  }

  @Test func aCheaperStoredHashNeedsRehashing() throws {
    let cheap = try PasswordHasher(logN: 10, r: 8, p: 1).hash("a passphrase")
    #expect(PasswordHasher.standard.needsRehash(cheap))
    #expect(!PasswordHasher(logN: 10, r: 8, p: 1).needsRehash(cheap))
    #expect(PasswordHasher.standard.needsRehash("garbage"))
  }

  @Test func theStandardHashHasThePolicyParameters() async throws {
    let phc = try await PasswordHasher.standard.hash("a long enough passphrase")
    let parsed = try ScryptHash(phc: phc)
    #expect((parsed.logN, parsed.r, parsed.p) == (17, 8, 1))
    #expect(parsed.salt.count == 16 && parsed.hash.count == 32)
    #expect(try await PasswordHasher.standard.verify("a long enough passphrase", against: phc))
  }

  @Test func theDecoyHashIsAValidStandardHash() throws {
    let decoy = try ScryptHash(phc: AccountStore.decoyHash)
    #expect((decoy.logN, decoy.r, decoy.p) == (17, 8, 1))
  }
}
