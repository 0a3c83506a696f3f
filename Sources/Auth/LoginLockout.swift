import Foundation

/// Ten failed logins in a row lock an account for 15 minutes: local accounts and the sync
/// server's alike. The count starts again after a success and when a lock is set.
public enum LoginLockout {
  public static let attempts = 10
  public static let duration: TimeInterval = 15 * 60

  /// The stored count and lock after one more failed login. A lock that has run out starts a
  /// fresh count, whatever count was stored with it (rows written before the count was reset
  /// at locking time still hold 10).
  public static func afterFailure(count: Int, lockedUntil: Date?, now: Date) -> (
    count: Int, lockedUntil: Date?
  ) {
    let expired = lockedUntil.map { $0 <= now } ?? false
    let failures = (expired ? 0 : count) + 1
    return failures >= attempts ? (0, now.addingTimeInterval(duration)) : (failures, nil)
  }
}
