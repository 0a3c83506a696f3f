import Auth
import Cryptography
import Foundation
import Replication

/// What `vital serve admin` does to a server's accounts, on either backend. It shows counts and
/// sizes, never a record's value; suspending keeps every record.
public struct ServerAdmin: Sendable {
  let repository: any SyncRepository

  public init(repository: any SyncRepository) { self.repository = repository }

  public func accounts() async throws -> [AdminAccount] { try await repository.accounts() }

  /// Suspends (every call of the account then gets 403) or resumes the account of `email`.
  public func setSuspended(_ email: String, _ suspended: Bool) async throws {
    guard try await repository.setSuspended(email: try Self.normalized(email), suspended) else {
      throw ServerAdminError.noAccount(email)
    }
  }

  /// Deletes the account of `email` with every token, record and blob.
  public func delete(_ email: String) async throws {
    guard let user = try await repository.passwordHash(email: try Self.normalized(email)) else {
      throw ServerAdminError.noAccount(email)
    }
    try await repository.deleteUser(userID: user.userID)
  }

  /// A new one-time registration code (good for `Invite.lifetime`), of which the server keeps
  /// only the SHA-256: 20 letters and digits in groups of four, easy to read out.
  public func invite(now: Date) async throws -> String {
    let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
    let letters = try Crypto.randomBytes(20).map { alphabet[Int($0) % alphabet.count] }
    let code = stride(from: 0, to: 20, by: 4).map { String(letters[$0..<$0 + 4]) }.joined(separator: "-")
    try await repository.createInvite(sha256: Crypto.sha256Hex(Data(code.utf8)), now: now)
    return code
  }

  /// Deletes now the bytes of blobs no record points at (the server does it every hour),
  /// sparing those that came less than `olderThan` ago.
  public func collectBlobs(now: Date, olderThan: TimeInterval = CollectedBlobs.grace) async throws -> CollectedBlobs {
    try await repository.collectBlobs(storedBefore: now.addingTimeInterval(-olderThan))
  }

  /// Writes a consistent backup of the whole store to `path` (complete, or no file at all).
  public func backup(to path: String, source: String, now: Date) async throws -> [BackupTable: Int] {
    let writer = try BackupWriter(path: path, source: source, now: now)
    try await repository.backup(to: writer)
    try writer.finish()
    return writer.rowCounts
  }

  /// Restores a backup into this empty store, all or nothing.
  public func restore(from path: String, rules: [String: [String: FieldRule]] = [:]) async throws -> String {
    let reader = try BackupReader(path: path, rules: rules)
    try await repository.restore(from: reader)
    return reader.source
  }

  static func normalized(_ email: String) throws -> String {
    do { return try Email.normalize(email) } catch { throw ServerAdminError.noAccount(email) }
  }
}

public enum ServerAdminError: Error, CustomStringConvertible {
  case noAccount(String)

  public var description: String {
    switch self {
    case .noAccount(let email):
      "no account '\(email.prefix(100))' on this server; 'vital serve admin accounts' lists them"
    }
  }
}
