import Foundation
import Schema
import Storage
import Testing

@testable import Auth

/// Domain tests at a low scrypt cost so they run fast; the CLI tests use the real cost.
@Suite struct AccountStoreTests {
  let db: Database
  let start = ISO8601.date(from: "2026-12-01T08:00:00Z")!
  static let fast = PasswordHasher(logN: 10, r: 8, p: 1)

  init() throws {
    db = try Database.inMemory()
    try VitalSchema.migrator.migrate(db)
  }

  func store(at offset: TimeInterval = 0, hasher: PasswordHasher = fast) -> AccountStore {
    AccountStore(db: db, hasher: hasher, now: start.addingTimeInterval(offset))
  }

  @Test func registerNormalisesTheEmailAndRefusesADuplicate() async throws {
    let ann = try await store().register(email: " Ann@Example.ORG", name: "Ann", password: "a good long passphrase")
    #expect(ann.email == "ann@example.org")
    await #expect(throws: AuthError.emailTaken) {
      try await store().register(email: "ann@example.org", name: nil, password: "another passphrase")
    }
  }

  /// One address typed two ways (a decomposed and a precomposed é) is one account.
  @Test func oneAddressInTwoUnicodeFormsIsOneAccount() async throws {
    let decomposed = "e\u{301}x@example.org"
    let precomposed = "\u{e9}x@example.org"
    #expect(Array(decomposed.utf8) != Array(precomposed.utf8))
    #expect(try Email.normalize(decomposed) == Email.normalize(precomposed))
    #expect(Array(try Email.normalize(decomposed).utf8) == Array("\u{e9}x@example.org".utf8))
    let first = try await store().register(email: decomposed, name: nil, password: "a good long passphrase")
    await #expect(throws: AuthError.emailTaken) {
      try await store().register(email: precomposed, name: nil, password: "another passphrase")
    }
    #expect(try await store().authenticate(email: precomposed, password: "a good long passphrase").id == first.id)
  }

  /// A home from before NFC with both spellings: migration 0015 merges nothing, names them,
  /// and each still logs in as stored; a lone decomposed email is brought to NFC.
  @Test func theNFCMigrationKeepsBothOfAPairAndRenamesTheRest() async throws {
    let old = try Database.inMemory()
    try Migrator(Array(VitalSchema.migrator.migrations.prefix(14))).migrate(old)
    let hash = try await Self.fast.hash("a good long passphrase")
    for (id, email, at) in [
      ("a", "e\u{301}x@example.org", "2026-01-01T00:00:00Z"), ("b", "\u{e9}x@example.org", "2026-01-02T00:00:00Z"),
      ("c", "zoe\u{308}@example.org", "2026-01-03T00:00:00Z"),
    ] {
      try old.execute(
        "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)", id, email, hash, at)
    }
    try VitalSchema.migrator.migrate(old)
    let emails = try old.query("SELECT id, email FROM account ORDER BY id") {
      "\(try $0.get(0, as: String.self)) \(Array(try $0.get(1, as: String.self).unicodeScalars).count)"
    }
    #expect(emails == ["a 15", "b 14", "c 15"], "a kept apart, c in NFC")
    #expect(try AccountStore.duplicateEmails(old).count == 1)
    let store = AccountStore(db: old, hasher: Self.fast, now: start)
    #expect(try await store.authenticate(email: "e\u{301}x@example.org", password: "a good long passphrase").id == "a")
    #expect(try await store.authenticate(email: "\u{e9}x@example.org", password: "a good long passphrase").id == "b")
    #expect(try await store.authenticate(email: "zo\u{eb}@example.org", password: "a good long passphrase").id == "c")
  }

  @Test func tenFailuresLockForFifteenMinutes() async throws {
    _ = try await store().register(email: "ann@example.org", name: nil, password: "a good long passphrase")
    for i in 0..<10 {
      await #expect(throws: AuthError.wrongCredentials) {
        try await store(at: Double(i)).authenticate(email: "ann@example.org", password: "wrong guess \(i)")
      }
    }
    await #expect(throws: AuthError.locked(minutes: 15)) {
      try await store(at: 10).authenticate(email: "ann@example.org", password: "a good long passphrase")
    }
    await #expect(throws: AuthError.locked(minutes: 1)) {
      try await store(at: 14 * 60 + 30).authenticate(email: "ann@example.org", password: "a good long passphrase")
    }
    let back = try await store(at: 9 + 15 * 60).authenticate(
      email: "ann@example.org", password: "a good long passphrase")
    #expect(back.email == "ann@example.org")
  }

  @Test func theLockoutRuleCountsTenThenStartsAgain() {
    let now = Date(timeIntervalSince1970: 0)
    var count = 0
    for attempt in 1...9 {
      let (next, lock) = LoginLockout.afterFailure(count: count, lockedUntil: nil, now: now)
      #expect(next == attempt && lock == nil)
      count = next
    }
    let (afterTenth, lock) = LoginLockout.afterFailure(count: count, lockedUntil: nil, now: now)
    #expect(afterTenth == 0 && lock == now.addingTimeInterval(15 * 60))
    // Once that lock runs out, one more failure is the first of a new ten.
    let later = now.addingTimeInterval(16 * 60)
    #expect(LoginLockout.afterFailure(count: afterTenth, lockedUntil: lock, now: later) == (1, nil))
    // A row written by the old rule kept its count of 10 with the lock: it starts again too.
    #expect(LoginLockout.afterFailure(count: 10, lockedUntil: lock, now: later) == (1, nil))
  }

  @Test func nineFailuresThenSuccessResetTheCount() async throws {
    _ = try await store().register(email: "ann@example.org", name: nil, password: "a good long passphrase")
    for _ in 0..<9 {
      _ = try? await store().authenticate(email: "ann@example.org", password: "nope nope")
    }
    _ = try await store().authenticate(email: "ann@example.org", password: "a good long passphrase")
    for _ in 0..<9 {
      _ = try? await store().authenticate(email: "ann@example.org", password: "nope nope")
    }
    #expect(
      try await store().authenticate(email: "ann@example.org", password: "a good long passphrase").email
        == "ann@example.org")
  }

  @Test func anUnknownEmailFailsLikeAWrongPassword() async throws {
    _ = try await store().register(email: "ann@example.org", name: nil, password: "a good long passphrase")
    var errors: [AuthError] = []
    for email in ["ann@example.org", "nobody@example.org", "not an email"] {
      do {
        _ = try await store().authenticate(email: email, password: "wrong password")
      } catch let error as AuthError {
        errors.append(error)
      }
    }
    #expect(errors == [.wrongCredentials, .wrongCredentials, .wrongCredentials])
  }

  @Test func aCheaperHashIsUpgradedOnLogin() async throws {
    let weak = PasswordHasher(logN: 9, r: 8, p: 1)
    _ = try await store(hasher: weak).register(email: "ann@example.org", name: nil, password: "a good long passphrase")
    _ = try await store().authenticate(email: "ann@example.org", password: "a good long passphrase")
    let stored = try #require(try db.scalar(String.self, "SELECT password_hash FROM account"))
    #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
    #expect(
      try await store().authenticate(email: "ann@example.org", password: "a good long passphrase").email
        == "ann@example.org")
  }

  @Test func sessionsStoreOnlyTheTokenHashAndExpire() async throws {
    let ann = try await store().register(email: "ann@example.org", name: nil, password: "a good long passphrase")
    let token = try store().startSession(for: ann)
    #expect(token.count == 64)
    let everything = try db.query("SELECT token_sha256 || account_id || created_at || last_used_at FROM session") {
      try $0.get(0, as: String.self)
    }
    #expect(!everything.joined().contains(token))
    #expect(try store(at: 29 * 86_400).account(forToken: token) == ann)
    // Used on day 29, so it lives until day 59.
    #expect(try store(at: 58 * 86_400).account(forToken: token) == ann)
    #expect(throws: AuthError.sessionExpired) { try store(at: 89 * 86_400).account(forToken: token) }
    #expect(throws: AuthError.notLoggedIn) { try store(at: 89 * 86_400).account(forToken: token) }
  }

  @Test func changingThePasswordEndsEverySession() async throws {
    let ann = try await store().register(email: "ann@example.org", name: nil, password: "a good long passphrase")
    let token = try store().startSession(for: ann)
    await #expect(throws: AuthError.wrongPassword) {
      try await store().changePassword(for: ann, old: "not it at all", new: "a brand new passphrase")
    }
    #expect(try store().account(forToken: token) == ann)
    try await store().changePassword(for: ann, old: "a good long passphrase", new: "a brand new passphrase")
    #expect(throws: AuthError.notLoggedIn) { try store().account(forToken: token) }
    await #expect(throws: AuthError.wrongCredentials) {
      try await store().authenticate(email: "ann@example.org", password: "a good long passphrase")
    }
    #expect(try await store().authenticate(email: "ann@example.org", password: "a brand new passphrase") == ann)
  }

  @Test func deleteNeedsThePasswordAndRemovesEveryOwnedRow() async throws {
    let ann = try await store().register(email: "ann@example.org", name: nil, password: "a good long passphrase")
    let bob = try await store().register(email: "bob@example.org", name: nil, password: "bob's own passphrase")
    _ = try store().startSession(for: ann)
    _ = try store().startSession(for: bob)
    await #expect(throws: AuthError.wrongPassword) { try await store().delete(ann, password: "wrong") }
    try await store().delete(ann, password: "a good long passphrase")
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM account WHERE id = ?", ann.id) == 0)
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM session WHERE account_id = ?", ann.id) == 0)
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM session WHERE account_id = ?", bob.id) == 1)
  }
}
