import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records
import Sync

extension Vital {
  struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "account",
      abstract: "Create, log in to, change or delete a local account.",
      subcommands: [Register.self, Login.self, Logout.self, Whoami.self, Passwd.self, Delete.self]
    )
  }
}

extension Vital.AccountCommand {
  struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "register", abstract: "Create a local account and log in to it.",
      discussion: """
        Examples:
          vital account register --email ann@example.org
          echo "$PASSWORD" | vital account register --email ann@example.org --password-stdin --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Your email address; it names the account.") var email: String
    @Option(help: "What Vital calls you.") var name: String?
    @OptionGroup var password: PasswordOptions

    func run() async throws {
      let app = try App(global)
      let secret = try PasswordPrompt.read("new password", fromStdin: password.passwordStdin, confirm: true)
      let account = try await app.accounts.register(email: email, name: name, password: secret)
      let profiles = ProfileStore(db: app.db, account: account, now: app.now)
      var profile = try profiles.load()
      profile.name = account.name
      // On a terminal, a person is there to ask; scripts (--password-stdin, --json) are not.
      if !password.passwordStdin, !app.output.json, PasswordPrompt.canAsk { FirstRunQuestions.ask(&profile) }
      try profiles.save(profile, chosen: profile.regionChosen ? ["region"] : [])
      try app.logIn(account)
      try app.output.show(account.json) { "registered and logged in as \(account.human)" }
    }
  }

  struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "login", abstract: "Log in to a local account.",
      discussion: """
        Examples:
          vital account login --email ann@example.org
          echo "$PASSWORD" | vital account login --email ann@example.org --password-stdin
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The account's email address.") var email: String
    @OptionGroup var password: PasswordOptions

    func run() async throws {
      let app = try App(global)
      let secret = try PasswordPrompt.read("password", fromStdin: password.passwordStdin)
      let account = try await app.accounts.authenticate(email: email, password: secret)
      try app.logIn(account)
      try app.output.show(account.json) { "logged in as \(account.human)" }
    }
  }

  struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "logout", abstract: "End the session in this data folder.",
      discussion: """
        Examples:
          vital account logout
          vital account logout --home ~/vital-test
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let app = try App(global)
      let ended = try app.logOut()
      try app.output.show(.object([("logged_out", .bool(ended))])) { ended ? "logged out" : "not logged in" }
    }
  }

  struct Whoami: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "whoami", abstract: "Show the logged-in account.",
      discussion: """
        Examples:
          vital account whoami
          vital account whoami --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      try app.output.show(account.json) { account.human }
    }
  }

  struct Passwd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "passwd",
      abstract: "Change the password (old, then new); every session of the account ends.",
      discussion: """
        Examples:
          vital account passwd
          printf "%s\\n%s\\n" "$OLD" "$NEW" | vital account passwd --password-stdin
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var password: PasswordOptions

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let old = try PasswordPrompt.read("current password", fromStdin: password.passwordStdin)
      let new = try PasswordPrompt.read("new password", fromStdin: password.passwordStdin, confirm: true)
      try await app.accounts.changePassword(for: account, old: old, new: new)
      try? FileManager.default.removeItem(atPath: app.home.sessionPath)
      try app.output.show(.object([("changed", .bool(true))])) {
        "password changed; log in again with 'vital account login --email \(account.email)'"
      }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete the logged-in account and every record it owns.",
      discussion: """
        Examples:
          vital account delete --yes
          vital account delete --yes --keep-remote
        """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Confirm that everything of this account is to be deleted.") var yes = false
    @Flag(help: "Delete only this device's copy and leave the one on the sync server.") var keepRemote = false
    @OptionGroup var password: PasswordOptions

    func validate() throws {
      guard yes else {
        throw ValidationError("this deletes the account and all its records for good; add --yes to confirm")
      }
    }

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      if !keepRemote, let remote = try RemoteSettings.load(app.db, accountID: account.id), remote.token != nil {
        throw CLIError.needsInput(
          "this account syncs with \(remote.url); delete the copy there first with 'vital remote delete --yes', or pass --keep-remote to delete only this device's copy"
        )
      }
      let secret = try PasswordPrompt.read("password", fromStdin: password.passwordStdin)
      try await app.accounts.delete(account, password: secret)
      try? FileManager.default.removeItem(atPath: app.home.sessionPath)
      try app.output.show(.object([("deleted", .string(account.email))])) {
        "deleted the account \(account.email) and all its records"
      }
    }
  }
}
