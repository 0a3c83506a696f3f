import Foundation

/// The scrypt cost Vital asks of every passphrase it turns into a key or a stored hash: an
/// account's password, a sync passphrase, a database's passphrase at rest.
public enum ScryptPolicy {
  /// N = 2^17 (r = 8, p = 1): about 0.6 s and 128 MiB here.
  public static let logN: Int = {
    #if DEBUG
      // Debug builds only: scripts/test starts hundreds of `vital` and `vital-serve` processes,
      // each account, login and sync key costing 0.6 s of CPU at the policy's cost, and its
      // runner asks for less. Release builds (what scripts/install makes) never read this.
      if let text = ProcessInfo.processInfo.environment["VITAL_TEST_SCRYPT_LOG_N"], let n = Int(text),
        (10...17).contains(n)
      {
        return n
      }
    #endif
    return 17
  }()
}
