import Cryptography
import Foundation
import Storage

/// How a command gets the key of a sealed database before it opens it: from the file named by
/// `VITAL_PASSPHRASE_FILE` (scripts), else from the kernel keyring (`vital unlock`), else, where
/// the keyring cannot keep keys, by asking on a terminal. A plain database needs nothing.
public struct AtRestAccess {
  public let environment: [String: String]
  /// The keyring to look in; by default the kernel's, asked only for a sealed database.
  public let keyring: KernelKeyring?
  /// Asks for a passphrase on a terminal with the prompt given; nil when there is no terminal.
  public let ask: (String) throws -> String?

  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    keyring: KernelKeyring? = nil, ask: @escaping (String) throws -> String?
  ) {
    self.environment = environment
    self.keyring = keyring
    self.ask = ask
  }

  /// Lets this process open the database at `path` when it is sealed; nothing is written.
  public func prepare(databaseAt path: String) throws {
    guard !SealedPages.isRegistered(databaseAt: path), SealedPages.isSealed(fileAt: path) else { return }
    let database = SealedDatabase(path: path)
    let header = try database.header()
    if let file = environment["VITAL_PASSPHRASE_FILE"], !file.isEmpty {
      do {
        try database.use(AtRestKeys.open(header, passphrase: try Self.passphrase(fromFile: file)))
      } catch AtRestError.wrongPassphrase {
        throw AtRestError.wrongPassphraseInFile(path: file)
      }
      return
    }
    switch (keyring ?? KernelKeyring(environment: environment)).find(header.keyringName) {
    case .found(let key):
      try database.use(key)
    case .missing:
      throw AtRestError.locked
    case .expired:
      throw AtRestError.unlockExpired
    case .unavailable(let reason):
      let prompt = "the kernel keyring cannot keep the key here (\(reason)), so each command asks.\nPassphrase: "
      guard let passphrase = try ask(prompt) else { throw AtRestError.keyringUnavailable(reason: reason) }
      try database.use(AtRestKeys.open(header, passphrase: passphrase))
    }
  }

  /// The passphrase in `path`: its first line.
  public static func passphrase(fromFile path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw AtRestError.passphraseFile(path: path, reason: String(cString: strerror(errno)).lowercased())
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw AtRestError.passphraseFile(path: path, reason: "it is not UTF-8 text")
    }
    // "\r\n" is one Character to Swift: split on either kind of line end.
    let line = text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
    let passphrase = String(line)
    guard !passphrase.isEmpty else { throw AtRestError.passphraseFile(path: path, reason: "its first line is empty") }
    return passphrase
  }
}
