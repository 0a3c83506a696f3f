import Foundation
import NIOConcurrencyHelpers

/// Failed logins and refused registrations, counted per client address: past `failures` in
/// `window`, the address gets 429 until its oldest failure in the window ages out. It also
/// remembers which accounts an address failed against, so that an account locked by someone
/// else's guesses still lets in its owner from an address that has not failed. Kept in memory
/// by each server process (two servers on one PostgreSQL each count their own).
final class AddressLimiter: Sendable {
  struct Limits: Sendable {
    var failures = 20
    var window: TimeInterval = 15 * 60
    /// Addresses remembered at once; beyond, those whose failures are oldest are forgotten.
    var addresses = 65_536
    /// Accounts remembered per address.
    var accountsPerAddress = 16
  }

  struct Entry {
    var failures: [Date] = []
    var accounts: [String] = []
  }

  let limits: Limits
  private let state = NIOLockedValueBox([String: Entry]())

  init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// When `address` may try again, if it may not now.
  func blockedUntil(_ address: String, now: Date) -> Date? {
    state.withLockedValue { entries in
      guard let entry = entries[address] else { return nil }
      let recent = entry.failures.filter { now.timeIntervalSince($0) < limits.window }
      guard recent.count >= limits.failures, let oldest = recent.first else { return nil }
      return oldest.addingTimeInterval(limits.window)
    }
  }

  /// Whether `address` failed to log in to `account` within the window.
  func hasFailed(_ address: String, against account: String, now: Date) -> Bool {
    state.withLockedValue { entries in
      guard let entry = entries[address], let last = entry.failures.last,
        now.timeIntervalSince(last) < limits.window
      else { return false }
      return entry.accounts.contains(account)
    }
  }

  func recordFailure(_ address: String, account: String?, now: Date) {
    state.withLockedValue { entries in
      if entries[address] == nil, entries.count >= limits.addresses { forgetOldest(&entries, now: now) }
      var entry = entries[address] ?? Entry()
      entry.failures =
        entry.failures.filter { now.timeIntervalSince($0) < limits.window }.suffix(limits.failures - 1)
        + [now]
      if let account, !entry.accounts.contains(account) {
        entry.accounts = entry.accounts.suffix(limits.accountsPerAddress - 1) + [account]
      }
      entries[address] = entry
    }
  }

  /// Makes room: drops every address whose failures have aged out, else the tenth of them whose
  /// last failure is oldest.
  private func forgetOldest(_ entries: inout [String: Entry], now: Date) {
    entries = entries.filter { now.timeIntervalSince($0.value.failures.last ?? .distantPast) < limits.window }
    guard entries.count >= limits.addresses else { return }
    let oldest = entries.sorted { ($0.value.failures.last ?? .distantPast) < ($1.value.failures.last ?? .distantPast) }
    for (address, _) in oldest.prefix(max(1, entries.count / 10)) { entries[address] = nil }
  }
}
