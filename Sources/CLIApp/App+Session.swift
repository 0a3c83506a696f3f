import Auth
import CLICore
import Core
import Foundation

extension App {
  public var accounts: AccountStore { AccountStore(db: db, now: now) }

  /// The logged-in account, or the error that tells the user how to log in.
  public func requireAccount() throws -> Account {
    guard let token = readSessionToken() else { throw AuthError.notLoggedIn }
    do {
      return try accounts.account(forToken: token)
    } catch let error as AuthError {
      try? FileManager.default.removeItem(atPath: home.sessionPath)
      throw error
    }
  }

  /// The account of the current session, if there is a valid one.
  public func currentAccount() -> Account? {
    guard let token = readSessionToken() else { return nil }
    return try? accounts.account(forToken: token)
  }

  public func readSessionToken() -> String? {
    guard let text = try? String(contentsOfFile: home.sessionPath, encoding: .utf8) else { return nil }
    let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return token.isEmpty ? nil : token
  }

  /// Starts a session for `account` and writes its token to `<home>/session` (0600), ending
  /// the session the file held before.
  public func logIn(_ account: Account) throws {
    if let old = readSessionToken() { try accounts.endSession(token: old) }
    let token = try accounts.startSession(for: account)
    try writePrivateFile(home.sessionPath, Data((token + "\n").utf8))
  }

  public func logOut() throws -> Bool {
    guard let token = readSessionToken() else { return false }
    try accounts.endSession(token: token)
    try? FileManager.default.removeItem(atPath: home.sessionPath)
    return true
  }

  /// Writes through a temporary file and a rename, so readers never see half a file.
  public func writePrivateFile(_ path: String, _ data: Data) throws {
    try OutputTarget.check(path)
    let temporary = path + ".tmp-\(getpid())"
    guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
    else { throw CLIError.cannotWrite(path, reason: String(cString: strerror(errno))) }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw CLIError.cannotWrite(path, reason: reason)
    }
  }
}
