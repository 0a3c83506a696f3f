import Foundation

/// Ten failed logins in a row lock an account for 15 minutes: local accounts and the sync
/// server's alike. The count starts again after a success and when a lock is set.
public enum LoginLockout {
  public static let attempts = 10
  public static let duration: TimeInterval = 15 * 60

  /// The stored count and lock after one more failed login. Logins are refused while a lock
  /// holds, so a failure is only ever counted once the last lock has run out.
  public static func afterFailure(count: Int, now: Date) -> (count: Int, lockedUntil: Date?) {
    let failures = count + 1
    return failures >= attempts ? (0, now.addingTimeInterval(duration)) : (failures, nil)
  }
}
