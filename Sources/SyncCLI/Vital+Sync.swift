import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Replication
import Schema
import Storage
import Sync
import SyncHTTP

extension VitalSync {
  struct Remote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remote",
      abstract: "The sync server for this account.",
      subcommands: [
        SetURL.self, Join.self, Register.self, Login.self, Status.self, Devices.self, Revoke.self, Encrypt.self,
        Passphrase.self,
        RotateKey.self,
        Delete.self,
      ])
  }

  struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync", abstract: "Push local changes to the server and pull everyone else's.",
      discussion: """
        Examples:
          vital sync
          echo "$PASSPHRASE" | vital sync --passphrase-stdin --json
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var passphrase: PassphraseOptions

    func run() async throws {
      let (app, account, client, remote) = try RemoteContext.open(global)
      let token = try RemoteContext.token(remote)
      let replica = Replica(db: app.db, accountID: account.id, now: app.now)
      let before = try replica.refusals()
      let summary = try await RemoteContext.sync(app, account, client, remote, token: token, passphrase: passphrase)
      let refused = RefusedReport.new(try replica.refusals(), since: before)
      SetAsideReport.warn(summary.setAside)
      RefusedReport.warn(refused)
      try app.output.show(
        .object([
          ("pushed", .int(summary.pushed)), ("pulled", .int(summary.pulled)), ("cursor", .optional(summary.cursor)),
          ("set_aside", SetAsideReport.json(summary.setAside, app: app)),
          ("refused", RefusedReport.json(refused, app: app)),
        ])
      ) {
        "synced with \(remote.url): \(HumanText.count(summary.pushed, "record")) pushed, \(summary.pulled) pulled"
          + (summary.setAside.isEmpty ? "" : ", \(summary.setAside.count) set aside (see the warnings)")
          + (refused.isEmpty ? "" : ", \(refused.count) refused (invalid values from another device)")
      }
    }
  }
}

extension VitalSync.Remote {
  struct SetURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set", abstract: "Remember the server's URL.",
      discussion: """
        Examples:
          vital remote set http://127.0.0.1:8080
          vital remote set https://vital.example.org
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "e.g. http://127.0.0.1:8080") var url: String

    func run() async throws {
      guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
        throw ValidationError("the URL must look like http://127.0.0.1:8080")
      }
      let app = try App(global)
      let account = try app.requireAccount()
      var remote = try RemoteSettings.load(app.db, accountID: account.id) ?? RemoteSettings(url: url)
      if remote.url != url {
        // Another server: its cursor and login mean nothing here, and it has none of the
        // records this device already sent elsewhere (the sync key goes there on first sync).
        remote = RemoteSettings(url: url)
        try Replica(db: app.db, accountID: account.id, now: app.now).requeueAll()
      }
      try remote.save(app.db, accountID: account.id)
      if ServerAddress.travelsInTheClear(parsed) {
        FileHandle.standardError.write(
          Data(
            "warning: \(parsed.host ?? url) is neither this machine nor a private network, and http is not encrypted: your password and health data would travel in the clear; use https://\n"
              .utf8))
      }
      try app.output.show(.object([("url", .string(url))])) { "remote set to \(url)" }
    }
  }

  struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "register",
      abstract: "Create an account on the server for this account's email, and log in to it.",
      discussion: """
        Examples:
          vital remote register
          echo "$PASSWORD" | vital remote register --password-stdin
          vital remote register --invite abcd-efgh-jkmn-pqrs-tuvw   # a server open by invitation
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var password: PasswordOptions
    @Option(help: "A one-time code from the server's operator ('vital serve admin invite').") var invite: String?
    @OptionGroup var device: DeviceNameOption

    func run() async throws {
      let (app, account, client, remote) = try RemoteContext.open(global)
      let secret = try PasswordPrompt.read("password for the server", fromStdin: password.passwordStdin, confirm: true)
      try await client.register(email: account.email, password: secret, invite: invite)
      try await RemoteContext.logIn(app, account, client, remote, secret, device: device.name)
    }
  }

  struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "login", abstract: "Log in to the server with this account's email.",
      discussion: """
        Examples:
          vital remote login
          printf "%s\\n%s\\n" "$PASSWORD" "$PASSPHRASE" | vital remote login --password-stdin --passphrase-stdin
          vital remote login --device-name "work laptop"
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var password: PasswordOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var device: DeviceNameOption

    func run() async throws {
      let (app, account, client, remote) = try RemoteContext.open(global)
      let secret = try PasswordPrompt.read("password for the server", fromStdin: password.passwordStdin)
      try await RemoteContext.logIn(app, account, client, remote, secret, device: device.name, passphrase: passphrase)
    }
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "The server, the login and what waits to be sent.",
      discussion: """
        Examples:
          vital remote status
          vital remote status --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let remote = try RemoteSettings.load(app.db, accountID: account.id)
      let replica = Replica(db: app.db, accountID: account.id, now: app.now)
      let pending = try replica.pendingCount()
      let setAside = try replica.setAsideRecords()
      let refused = try replica.refusals()
      let encrypted = try SyncKey.load(app.db, accountID: account.id) != nil
      let server = await ServerCheck(remote, app: app, account: account)
      if let warning = server.warning { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
      let json = JSON.object([
        ("url", .optional(remote?.url)), ("logged_in", .bool(remote?.token != nil)),
        ("last_sync", app.iso(remote?.lastSync)), ("pending", .int(pending)), ("encrypted", .bool(encrypted)),
        ("set_aside", SetAsideReport.json(setAside, app: app)), ("refused", RefusedReport.json(refused, app: app)),
        ("server", server.json),
      ])
      try app.output.show(json) {
        guard let remote else { return "no server set; run 'vital remote set URL'" }
        return """
          server     \(remote.url) (\(server.line))
          logged in  \(remote.token != nil ? "yes" : "no")
          last sync  \(app.human(remote.lastSync))
          pending    \(HumanText.count(pending, "change"))
          encrypted  \(encrypted ? "yes, end to end" : "no")
          """
            + (setAside.isEmpty
              ? ""
              : "\nset aside  \(HumanText.count(setAside.count, "record")) not sent"
                + (setAside.contains(where: \.isInvalid) ? ":\n" : " (too large):\n")
                + setAside.map { "  " + SetAsideReport.line($0) }.joined(separator: "\n"))
            + (refused.isEmpty
              ? ""
              : "\nrefused    \(HumanText.count(refused.count, "record")) from other devices with invalid values:\n"
                + refused.map { "  " + RefusedReport.line($0) }.joined(separator: "\n"))
      }
    }
  }
}

extension VitalSync.Remote {
  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete this account's copy on the server (this device keeps its own).",
      discussion: """
        Examples:
          vital remote delete --yes
        """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Confirm that the server's copy is to be deleted.") var yes = false

    func validate() throws {
      guard yes else { throw ValidationError("this deletes everything of this account on the server; add --yes") }
    }

    func run() async throws {
      var (app, account, client, remote) = try RemoteContext.open(global)
      guard let token = remote.token else {
        throw CLIError.needsInput("not logged in to \(remote.url); run 'vital remote login' first")
      }
      try await client.deleteAccount(token: token)
      remote.token = nil
      remote.cursor = nil
      remote.lastSync = nil
      try remote.save(app.db, accountID: account.id)
      // Everything would have to be sent again to a new server account, the sync key first.
      try client.resendEverything()
      try app.output.show(.object([("deleted", .string(remote.url))])) {
        "deleted \(account.email) and all its records on \(remote.url); this device keeps its copy"
      }
    }
  }
}

enum RemoteContext {
  static func open(_ global: GlobalOptions) throws -> (App, Account, SyncClient, RemoteSettings) {
    let app = try App(global)
    let account = try app.requireAccount()
    guard let remote = try RemoteSettings.load(app.db, accountID: account.id), let url = URL(string: remote.url) else {
      throw CLIError.needsInput("no server set; run 'vital remote set URL' first")
    }
    let client = SyncClient(db: app.db, accountID: account.id, now: app.now, url: url, datasets: VitalSchema.datasets)
    client.syncKey = try SyncKey.load(app.db, accountID: account.id)
    return (app, account, client, remote)
  }

  static func token(_ remote: RemoteSettings) throws -> String {
    guard let token = remote.token else {
      throw CLIError.needsInput("not logged in to \(remote.url); run 'vital remote login' (or 'vital remote register')")
    }
    return token
  }

  /// Logs in; for an end-to-end encrypted account, also asks for the sync passphrase when it
  /// can (a terminal, or --passphrase-stdin), else says that `vital sync` will.
  static func logIn(
    _ app: App, _ account: Account, _ client: SyncClient, _ remote: RemoteSettings, _ secret: String,
    device: String, passphrase: PassphraseOptions = PassphraseOptions()
  ) async throws {
    var remote = remote
    let previous = remote.token
    remote.token = try await client.login(email: account.email, password: secret, deviceName: device)
    try remote.save(app.db, accountID: account.id)
    // A device logging in again ends its old session, so that it is listed once in
    // `vital remote devices`; an old session the server already ended needs nothing more.
    if let previous { try? await client.logout(token: previous) }
    var encrypted = false
    if let token = remote.token, let wrapped = try await client.fetchKey(token: token) {
      encrypted = true
      // A device that holds this key already needs no passphrase, even a changed one.
      if client.syncKey?.key.keyID != wrapped.keyID {
        if passphrase.passphraseStdin || PasswordPrompt.canAsk {
          _ = try await client.unlock(passphrase: try passphrase.read(), token: token)
        } else {
          FileHandle.standardError.write(
            Data("this account is end-to-end encrypted; 'vital sync' will ask for its passphrase\n".utf8))
        }
      }
    }
    try app.output.show(
      .object([("url", .string(remote.url)), ("logged_in", .bool(true)), ("encrypted", .bool(encrypted))])
    ) {
      "logged in to \(remote.url) as \(account.email)" + (encrypted ? " (end-to-end encrypted)" : "")
    }
  }

  /// A sync that asks for the passphrase when it meets encrypted data without the key, and
  /// sends the key again when the server lost it (`SyncClient.syncRecovering`); progress on a
  /// terminal.
  static func sync(
    _ app: App, _ account: Account, _ client: SyncClient, _ remote: RemoteSettings, token: String,
    passphrase: PassphraseOptions
  ) async throws -> SyncClient.Summary {
    var remote = remote
    let tty = isatty(STDERR_FILENO) == 1
    // Avatars replaced more than a day ago and out of undo's reach go for every device.
    try ProfileStore(db: app.db, account: account, now: app.now).deleteUnusedBlobs(
      createdBefore: app.now.addingTimeInterval(-86_400))
    let summary = try await client.syncRecovering(token: token, cursor: remote.cursor) { cursor in
      remote.cursor = cursor
      remote.lastSync = app.now
      try remote.save(app.db, accountID: account.id)
    } passphrase: {
      guard passphrase.passphraseStdin || PasswordPrompt.canAsk else { throw EncryptionError.passphraseNeeded }
      return try passphrase.read()
    } progress: { s in
      if tty { FileHandle.standardError.write(Data("\rsync: \(s.pushed) pushed, \(s.pulled) pulled".utf8)) }
    }
    if tty { FileHandle.standardError.write(Data("\n".utf8)) }
    return summary
  }
}
