import ArgumentParser
import Auth
import CLIApp
import CLICore
import Core
import Foundation
import Replication
import Schema
import Sync
import SyncHTTP

extension VitalSync.Remote {
  /// A second device in one command: the account a person already keeps on a server, here.
  struct Join: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "join", abstract: "Set up this device for an account you already have on a sync server, and sync.",
      discussion: """
        Logs in to the server with the account's email and password, makes the local account \
        with the same password (or logs in to it when this folder has it already), asks for the \
        sync passphrase if the account is end-to-end encrypted, and runs the first sync: your \
        profile, donations, cycle, medications and the rest arrive, nothing to answer twice. \
        A wrong password or an unreachable server writes nothing here.

        Examples:
          vital remote join https://vital.example.org --email ann@example.org
          printf "%s\\n%s\\n" "$PASSWORD" "$PASSPHRASE" | vital remote join http://127.0.0.1:8080 --email ann@example.org --password-stdin --passphrase-stdin
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The server, e.g. https://vital.example.org") var url: String
    @Option(help: "The account's email address.") var email: String
    @OptionGroup var password: PasswordOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var device: DeviceNameOption

    func validate() throws {
      guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
        throw ValidationError("the URL must look like http://127.0.0.1:8080")
      }
    }

    func run() async throws {
      let app = try App(global)
      let server = URL(string: url)!
      if ServerAddress.travelsInTheClear(server) {
        FileHandle.standardError.write(
          Data(
            "warning: \(server.host ?? url) is neither this machine nor a private network, and http is not encrypted: your password and health data would travel in the clear; use https://\n"
              .utf8))
      }
      let secret = try PasswordPrompt.read("password of \(email)", fromStdin: password.passwordStdin)
      // The server first: a wrong password or no server leaves this folder as it was.
      let probe = SyncClient(
        db: app.db, accountID: "", now: app.now, url: server, datasets: VitalSchema.datasets)
      let token: String
      do {
        token = try await probe.login(email: email, password: secret, deviceName: device.name)
      } catch SyncError.unauthorized {
        throw CLIError.needsInput(
          "\(url) did not accept that email and password; nothing was set up here (a new account on a server: 'vital account register', 'vital remote set URL', 'vital remote register')"
        )
      }
      let account: Account
      do {
        if try app.accounts.exists(email: email) {
          do {
            account = try await app.accounts.authenticate(email: email, password: secret)
          } catch AuthError.wrongCredentials {
            throw CLIError.needsInput(
              "this folder has \(email) already, with another password: log in with 'vital account login --email \(email)', then 'vital remote set \(url)' and 'vital remote login'"
            )
          }
        } else {
          // Only the account: the profile and everything else come with the first sync.
          account = try await app.accounts.register(email: email, name: nil, password: secret)
        }
      } catch {
        try? await probe.logout(token: token)
        throw error
      }
      try app.logIn(account)
      var remote = try RemoteSettings.load(app.db, accountID: account.id) ?? RemoteSettings(url: url)
      if remote.url != url {
        remote = RemoteSettings(url: url)
        try Replica(db: app.db, accountID: account.id, now: app.now).requeueAll()
      }
      let previous = remote.token
      remote.token = token
      try remote.save(app.db, accountID: account.id)
      let client = SyncClient(
        db: app.db, accountID: account.id, now: app.now, url: server, datasets: VitalSchema.datasets)
      client.syncKey = try SyncKey.load(app.db, accountID: account.id)
      if let previous, previous != token { try? await client.logout(token: previous) }
      let summary = try await RemoteContext.sync(app, account, client, remote, token: token, passphrase: passphrase)
      SetAsideReport.warn(summary.setAside)
      let encrypted = client.syncKey != nil
      try app.output.show(
        .object([
          ("url", .string(url)), ("account", account.json), ("encrypted", .bool(encrypted)),
          ("pushed", .int(summary.pushed)), ("pulled", .int(summary.pulled)),
        ])
      ) {
        "joined \(url) as \(account.email)" + (encrypted ? " (end-to-end encrypted)" : "") + ": "
          + "\(HumanText.count(summary.pulled, "record")) pulled, \(summary.pushed) pushed; 'vital' shows today"
      }
    }
  }
}
