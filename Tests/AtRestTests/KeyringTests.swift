import AtRest
import Cryptography
import Foundation
import Testing

/// The kernel's user keyring, where this machine lets us use it (some containers do not).
@Suite(.enabled(if: KernelKeyring().unavailableReason == nil, "the kernel keyring is unavailable here"))
struct KeyringTests {
  let name = "vital:test-\(UUID().uuidString)"

  @Test func aKeptKeyIsFoundUntilItIsRemoved() throws {
    let keyring = KernelKeyring()
    let key = try SymmetricKey.random()
    try keyring.store(key, name: name, seconds: 60)
    guard case .found(let found) = keyring.find(name) else {
      Issue.record("the key should be found")
      return
    }
    #expect(found.dangerousCopy() == key.dangerousCopy())
    #expect(keyring.remove(name))
    guard case .missing = keyring.find(name) else {
      Issue.record("the removed key should be missing")
      return
    }
    #expect(!keyring.remove(name))
  }

  @Test func aKeyExpiresAfterItsTime() async throws {
    let keyring = KernelKeyring()
    try keyring.store(try SymmetricKey.random(), name: name, seconds: 1)
    try await Task.sleep(for: .milliseconds(2100))
    switch keyring.find(name) {
    case .expired, .missing: break
    default: Issue.record("the key should have expired")
    }
    keyring.remove(name)
  }

  @Test func turnedOffItKeepsNothing() throws {
    let keyring = KernelKeyring(environment: ["VITAL_KEYRING": "none"])
    #expect(keyring.unavailableReason == "VITAL_KEYRING=none")
    #expect(throws: AtRestError.cannotKeepKey(reason: "VITAL_KEYRING=none")) {
      try keyring.store(try SymmetricKey.random(), name: name, seconds: 60)
    }
  }
}
