internal import CKeyring
import Cryptography
import Foundation

/// The Linux kernel's user keyring (keyrings(7)), where `vital unlock` keeps a data key until
/// its timeout or the next reboot, readable by the user's own processes and nobody else's.
/// Some container runtimes refuse these system calls; `VITAL_KEYRING=none` turns it off.
public struct KernelKeyring: Sendable {
  public enum Lookup {
    case found(SymmetricKey)
    case missing
    case expired
    case unavailable(String)
  }

  /// Why it cannot be used here, when it cannot.
  public let unavailableReason: String?

  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    if environment["VITAL_KEYRING"] == "none" {
      unavailableReason = "VITAL_KEYRING=none"
    } else if vital_keyctl(KEYCTL_GET_KEYRING_ID, Self.userKeyring, 1, 0, 0) < 0 {
      unavailableReason = Self.reason(errno)
    } else {
      unavailableReason = nil
    }
  }

  /// Keeps `key` under `name` for `seconds`, replacing what was kept under that name.
  public func store(_ key: SymmetricKey, name: String, seconds: Int) throws {
    if let unavailableReason { throw AtRestError.cannotKeepKey(reason: unavailableReason) }
    let id = key.withUnsafeBytes { bytes in
      vital_add_key("user", name, bytes.baseAddress, bytes.count, KEY_SPEC_USER_KEYRING)
    }
    guard id >= 0 else { throw AtRestError.cannotKeepKey(reason: Self.reason(errno)) }
    // The owner's processes may read it; no group and nobody else, whatever the defaults.
    let ownerOnly: UInt = 0x3f3f_0000
    guard vital_keyctl(KEYCTL_SETPERM, UInt(id), ownerOnly, 0, 0) == 0,
      vital_keyctl(KEYCTL_SET_TIMEOUT, UInt(id), UInt(seconds), 0, 0) == 0
    else {
      let failure = Self.reason(errno)
      _ = vital_keyctl(KEYCTL_INVALIDATE, UInt(id), 0, 0, 0)
      throw AtRestError.cannotKeepKey(reason: failure)
    }
  }

  public func find(_ name: String) -> Lookup {
    if let unavailableReason { return .unavailable(unavailableReason) }
    let id = search(name)
    guard id >= 0 else { return lookupFailure(errno) }
    var buffer = [UInt8](repeating: 0, count: 64)
    defer { Crypto.cleanse(&buffer) }
    let count = buffer.withUnsafeMutableBytes {
      vital_keyctl(KEYCTL_READ, UInt(id), UInt(bitPattern: $0.baseAddress), UInt($0.count), 0)
    }
    guard count >= 0 else { return lookupFailure(errno) }
    guard count == 32 else { return .missing }
    return .found(SymmetricKey(bytes: buffer.prefix(32)))
  }

  /// Drops the key kept under `name`: false when none was kept.
  @discardableResult
  public func remove(_ name: String) -> Bool {
    guard unavailableReason == nil else { return false }
    let id = search(name)
    guard id >= 0 else { return false }
    if vital_keyctl(KEYCTL_INVALIDATE, UInt(id), 0, 0, 0) == 0 { return true }
    return vital_keyctl(KEYCTL_REVOKE, UInt(id), 0, 0, 0) == 0
  }

  private func search(_ name: String) -> Int {
    name.withCString { description in
      "user".withCString { type in
        vital_keyctl(KEYCTL_SEARCH, Self.userKeyring, UInt(bitPattern: type), UInt(bitPattern: description), 0)
      }
    }
  }

  private func lookupFailure(_ code: Int32) -> Lookup {
    switch code {
    case ENOKEY, EKEYREVOKED: return .missing
    case EKEYEXPIRED: return .expired
    default: return .unavailable(Self.reason(code))
    }
  }

  private static let userKeyring = UInt(bitPattern: Int(KEY_SPEC_USER_KEYRING))

  private static func reason(_ code: Int32) -> String {
    switch code {
    case ENOSYS: return "this kernel has no key retention service"
    case EPERM, EACCES: return "the system calls are blocked here, as some containers do"
    default: return String(cString: strerror(code)).lowercased()
    }
  }
}
