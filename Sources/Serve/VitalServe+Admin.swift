import ArgumentParser
import AtRest
import CLICore
import Foundation
import Storage
import SyncServer

extension VitalServe {
  struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "admin", abstract: "The server's accounts: list, suspend, resume, delete. No value is ever shown.",
      subcommands: [Accounts.self, Suspend.self, Resume.self, Delete.self, Invite.self, CollectBlobs.self])
  }
}

/// Opens the server's store for one admin command and closes it after.
enum AdminStore {
  /// `create`: a SQLite folder without a database gets a new, empty one (for a restore).
  static func run<T: Sendable>(
    _ store: ServeStoreOptions, create: Bool = false, _ body: @escaping @Sendable (ServerAdmin) async throws -> T
  ) async throws -> T {
    do {
      return try await open(store, create: create, body)
    } catch let error as ValidationError {
      throw error
    } catch {
      // One line, as every Vital error; what reaches here names no password or value.
      Output.error(String(describing: error).prefix(300).description)
      throw ExitCode.failure
    }
  }

  private static func open<T: Sendable>(
    _ store: ServeStoreOptions, create: Bool, _ body: @escaping @Sendable (ServerAdmin) async throws -> T
  ) async throws -> T {
    if let url = try store.postgresURL(environment: ProcessInfo.processInfo.environment) {
      // A one-off command says what went wrong in its one error line. The client's warnings
      // (a lease asked for in the instant before `run()` begins, say) are no news to its reader.
      let client = try PostgresSyncRepository.makeClient(url: url, logLevel: .error)
      return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
          await client.run()
          return nil
        }
        let repository = try await PostgresSyncRepository.connect(client: client, url: url, timeout: .seconds(30))
        let result = try await body(ServerAdmin(repository: repository))
        group.cancelAll()
        return result
      }
    }
    guard let data = store.data else {
      throw ValidationError("give --data DIR, --postgres URL or --postgres-file FILE")
    }
    let path = data + "/server.sqlite"
    if create {
      umask(0o077)
      try FileManager.default.createDirectory(
        atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    guard create || FileManager.default.fileExists(atPath: path) else {
      throw CLIError.needsInput("no server database in \(data); give the folder 'vital serve --data' uses")
    }
    try SealedStore.prepare(path: path, keyFile: store.keyFile)
    return try await body(ServerAdmin(repository: try SQLiteSyncRepository(path: path)))
  }

  static func iso(_ date: Date?) -> JSON { date.map { .string(ISO8601.string(from: $0)) } ?? .null }
}

extension VitalServe.Admin {
  struct Accounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "accounts", abstract: "Every account: created, last sync, devices, records, bytes, encrypted.",
      discussion: """
        Examples:
          vital serve admin accounts --data ~/vital-server
          vital serve admin accounts --postgres-file ~/.config/vital/postgres-url --json
        """)
    @OptionGroup var store: ServeStoreOptions
    @Flag(help: "One JSON document.") var json = false

    func run() async throws {
      let accounts = try await AdminStore.run(store) { try await $0.accounts() }
      let document = JSON.array(
        accounts.map { a in
          .object([
            ("email", .string(a.email)), ("created", AdminStore.iso(a.created)),
            ("last_sync", AdminStore.iso(a.lastSync)),
            ("devices", .int(a.devices)), ("records", .int(a.records)), ("stored_bytes", .int(a.storedBytes)),
            ("encrypted", .bool(a.encrypted)), ("suspended", .bool(a.suspended)),
          ])
        })
      try Output(json: json).show(document) {
        guard !accounts.isEmpty else { return "No accounts on this server." }
        var table = TextTable(["email", "created", "last sync", "devices", "records", "stored", "encrypted", "state"])
        for a in accounts {
          table.add([
            a.email, String(ISO8601.string(from: a.created).prefix(10)),
            a.lastSync.map { String(ISO8601.string(from: $0).prefix(16)).replacingOccurrences(of: "T", with: " ") }
              ?? "never",
            "\(a.devices)", "\(a.records)", Self.size(a.storedBytes), a.encrypted ? "yes" : "no",
            a.suspended ? "suspended" : "active",
          ])
        }
        return table.text
      }
    }

    static func size(_ bytes: Int64) -> String {
      bytes < 1024 ? "\(bytes) B" : bytes < 1 << 20 ? "\(bytes >> 10) KiB" : "\(bytes >> 20) MiB"
    }
  }

  struct Suspend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "suspend", abstract: "Suspend an account: every call gets 403; its records are kept.",
      discussion: """
        Examples:
          vital serve admin suspend ann@example.org --data ~/vital-server
        """)
    @OptionGroup var store: ServeStoreOptions
    @Argument(help: "The account's email.") var email: String
    @Flag(help: "One JSON document.") var json = false

    func run() async throws { try await Self.set(store, email, suspended: true, json: json) }

    static func set(_ store: ServeStoreOptions, _ email: String, suspended: Bool, json: Bool) async throws {
      try await AdminStore.run(store) { try await $0.setSuspended(email, suspended) }
      try Output(json: json).show(.object([("email", .string(email)), ("suspended", .bool(suspended))])) {
        suspended ? "suspended \(email); 'vital serve admin resume \(email)' lets it sync again" : "resumed \(email)"
      }
    }
  }

  struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "resume", abstract: "Let a suspended account sync again.",
      discussion: """
        Examples:
          vital serve admin resume ann@example.org --data ~/vital-server
        """)
    @OptionGroup var store: ServeStoreOptions
    @Argument(help: "The account's email.") var email: String
    @Flag(help: "One JSON document.") var json = false

    func run() async throws { try await Suspend.set(store, email, suspended: false, json: json) }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete an account with every record and avatar it keeps on this server.",
      discussion: """
        Examples:
          vital serve admin delete old@example.org --yes --data ~/vital-server
        """)
    @OptionGroup var store: ServeStoreOptions
    @Argument(help: "The account's email.") var email: String
    @Flag(help: "Confirm the deletion.") var yes = false
    @Flag(help: "One JSON document.") var json = false

    func validate() throws {
      guard yes else { throw ValidationError("this deletes the account and everything it keeps here; add --yes") }
    }

    func run() async throws {
      let email = email
      try await AdminStore.run(store) { try await $0.delete(email) }
      try Output(json: json).show(.object([("deleted", .string(email))])) {
        "deleted \(email) and everything it kept on this server"
      }
    }
  }

  struct Invite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "invite",
      abstract: "Print a one-time code that lets one person register (for 'vital serve --registration invite').",
      discussion: """
        The code is good for one account and for 7 days; the server keeps only its SHA-256.

        Examples:
          vital serve admin invite --data ~/vital-server
          vital remote register --invite abcd-efgh-jkmn-pqrs-tuvw   # on the new person's device
        """)
    @OptionGroup var store: ServeStoreOptions
    @Flag(help: "One JSON document.") var json = false

    func run() async throws {
      let now = Date()
      let code = try await AdminStore.run(store) { try await $0.invite(now: now) }
      let expires = now.addingTimeInterval(SyncServer.Invite.lifetime)
      try Output(json: json).show(.object([("invite", .string(code)), ("expires", AdminStore.iso(expires))])) {
        "\(code)\ngood for one registration until \(ISO8601.string(from: expires).prefix(16)) UTC: vital remote register --invite \(code)"
      }
    }
  }

  struct CollectBlobs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "collect-blobs",
      abstract: "Delete the bytes of avatars no record points at any more (the server does it every hour).",
      discussion: """
        Collected: bytes no record names that came more than --older-than minutes ago (an upload
        whose sync never came), and bytes whose record a device deleted. An end-to-end encrypted
        account's deleted records are sealed, so its bytes stay until the account or key goes.

        Examples:
          vital serve admin collect-blobs --data ~/vital-server
          vital serve admin collect-blobs --older-than 0 --postgres-file ~/.config/vital/postgres-url
        """)
    @OptionGroup var store: ServeStoreOptions
    @Option(help: "Spare bytes no record names yet that came less than this many minutes ago.")
    var olderThan = 60
    @Flag(help: "One JSON document.") var json = false

    func validate() throws {
      guard (0...525_600).contains(olderThan) else { throw ValidationError("--older-than takes 0 to 525600 minutes") }
    }

    func run() async throws {
      let minutes = olderThan
      let collected = try await AdminStore.run(store) {
        try await $0.collectBlobs(now: Date(), olderThan: TimeInterval(minutes * 60))
      }
      try Output(json: json).show(.object([("blobs", .int(collected.blobs)), ("bytes", .int(collected.bytes))])) {
        "collected \(collected.blobs) unused blob\(collected.blobs == 1 ? "" : "s") (\(Accounts.size(collected.bytes)))"
      }
    }
  }
}
