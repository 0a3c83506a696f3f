import Foundation
import TestServer
import Testing

/// `vital serve --data DIR --encrypt --key-file F`: the server's SQLite store sealed at rest.
@Suite(.enabled(if: TestServer.postgresURL == nil, "the server's store is SQLite here"))
struct AtRestServerTests {
  let root: VitalHome
  let device: VitalHome
  let keyFile: String
  let marker = "Praxis\(UUID().uuidString.prefix(6))"

  init() throws {
    root = try VitalHome()
    device = try VitalHome()
    keyFile = root.root + "/server-key"
    _ = FileManager.default.createFile(
      atPath: keyFile, contents: Data("a long random secret 8d1f0c77e2\n".utf8), attributes: [.posixPermissions: 0o600])
    device.environment["VITAL_NOW"] = "2026-11-22T08:00:00Z"
    try #require(
      try device.run(
        ["account", "register", "--email", "ann@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n"
      )
      .status == 0)
  }

  var store: String { root.root + "/server" }

  /// Whether the store's file or its log holds the marker in the clear.
  func fileHoldsMarker() -> Bool {
    ["", "-wal", "-journal"].contains {
      (FileManager.default.contents(atPath: store + "/server.sqlite" + $0) ?? Data()).range(of: Data(marker.utf8))
        != nil
    }
  }

  func pushMarker(to server: TestServer, register: Bool) throws {
    try #require(try device.run(["remote", "set", server.url.absoluteString]).status == 0)
    let account = register ? "register" : "login"
    try #require(
      try device.run(["remote", account, "--password-stdin"], stdin: "server side passphrase 42\n").status == 0)
    let added = try device.run(["donor", "add", "--at", "2026-10-01T09:00", "--place", marker])
    try #require(added.status == 0, "\(added.stderr)")
    let synced = try device.run(["sync"])
    #expect(synced.status == 0, "\(synced.stderr)")
  }

  func admin(_ extra: [String]) throws -> Run {
    try root.run(["serve", "admin", "accounts", "--data", store] + extra, home: .unset)
  }

  @Test func anEncryptedStoreHoldsNoRecordInTheClearAndOpensOnlyWithItsKey() throws {
    let server = try TestServer(dataDirectory: store, arguments: ["--encrypt", "--key-file", keyFile])
    try pushMarker(to: server, register: true)
    server.stop()
    #expect(!fileHoldsMarker())
    #expect(
      (FileManager.default.contents(atPath: store + "/server.sqlite") ?? Data()).starts(
        with: Data("vital-sealed-db".utf8)))

    let accounts = try admin(["--encrypt", "--key-file", keyFile, "--json"])
    #expect(accounts.status == 0 && accounts.stdout.contains("ann@example.org"), "\(accounts.stderr)")
    expectCleanError(try admin([]), mentioning: "--encrypt --key-file")
    let wrong = root.root + "/wrong-key"
    _ = FileManager.default.createFile(atPath: wrong, contents: Data("not the secret at all\n".utf8))
    expectCleanError(try admin(["--encrypt", "--key-file", wrong]), mentioning: "does not open the server's store")
    let alone = try root.run(["serve", "admin", "accounts", "--data", store, "--encrypt"], home: .unset)
    #expect(alone.status == 64 && alone.stderr.contains("go together"), "\(alone.stderr)")
  }

  /// A store that was plain is sealed in place at the first start with --encrypt, and devices
  /// go on syncing with it.
  @Test func aPlainStoreIsEncryptedAtItsFirstStartWithTheKey() throws {
    let plain = try TestServer(dataDirectory: store)
    try pushMarker(to: plain, register: true)
    plain.stop()
    #expect(fileHoldsMarker())
    // The same address, as a server restarted by its service manager has.
    let sealed = try TestServer(
      dataDirectory: store, port: plain.port, arguments: ["--encrypt", "--key-file", keyFile])
    #expect(!fileHoldsMarker())
    #expect(try device.run(["donor", "add", "--at", "2026-10-20T09:00", "--place", "Second visit"]).status == 0)
    let synced = try device.run(["sync", "--json"])
    #expect(synced.status == 0, "\(synced.stderr)")
    let other = try VitalHome()
    other.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    _ = try other.run(
      ["account", "register", "--email", "ann@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n")
    _ = try other.run(["remote", "set", sealed.url.absoluteString])
    #expect(try other.run(["remote", "login", "--password-stdin"], stdin: "server side passphrase 42\n").status == 0)
    #expect(try other.run(["sync"]).status == 0)
    let history = try other.run(["donor", "history", "--json"])
    #expect(history.stdout.contains(marker) && history.stdout.contains("Second visit"), "\(history.stdout)")
  }
}
