import Foundation
import TestServer
import Testing

/// `vital sync` against a server that would keep it asking forever or hands it what no server of
/// this protocol sends: each time one `error:` line naming the server, after a bounded number of
/// requests, and the device works as before.
@Suite struct HostileServerTests {
  @Test(arguments: [
    ("moving", "20 pages in a row said there is more and brought nothing"),
    ("same", "did not move past cursor"),
    ("backwards", "moved the cursor back"),
    ("long", "a cursor of 10003 characters (the protocol allows 64)"),
    ("garbage", "a cursor that is not <epoch>:<number>"),
  ])
  func aSyncWithAHostileServerStopsWithOneError(mode: String, words: String) throws {
    let home = try VitalHome()
    let server = try HostileServer(folder: home.root)
    try #require(
      try home.run(
        ["account", "register", "--email", "ann@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n"
      )
      .status == 0)
    try #require(try home.run(["donor", "record", "--at", "2026-01-01T10:00", "--place", "Nord"]).status == 0)
    try #require(try home.run(["remote", "set", server.url(mode).absoluteString]).status == 0)
    let login = try home.run(["remote", "login", "--password-stdin"], stdin: "whatever it takes\n")
    try #require(login.status == 0, "\(login.stderr)")

    let sync = try home.run(["sync"])
    #expect(sync.status == 1, "\(sync.stdout)")
    #expect(sync.stderr.hasPrefix("error: stopped syncing with \(server.url(mode).absoluteString): "), "\(sync.stderr)")
    #expect(sync.stderr.contains(words), "\(sync.stderr)")
    #expect(sync.stderr.split(separator: "\n").count == 1, "\(sync.stderr)")
    #expect(server.requests(mode) <= 21, "asked \(server.requests(mode)) times")
    #expect(server.requests(mode) >= 1)
    // The device is as it was: its donation is there, and the next sync stops the same way.
    let history = try home.run(["donor", "history", "--json"])
    #expect(history.status == 0 && (history.json as? [Any])?.count == 1, "\(history.stderr)")
    #expect(try home.run([]).status == 0)
    #expect(try home.run(["sync"]).status == 1)
  }
}
