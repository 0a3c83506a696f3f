import Foundation
import Testing

/// A second device in one command. Before, a fresh home answered `vital remote set URL` with
/// "not logged in; run 'vital account register'", and then asked four profile questions that
/// the first sync answered anyway.
extension SyncCLITests {
  @Test func aNewDeviceJoinsWithOneCommandAndGetsEverything() throws {
    let phrase = "our family sync phrase"
    try #require(try a.run(["profile", "set", "--name", "Ann", "--blood-type", "O+", "--region", "uk"]).status == 0)
    try #require(try a.run(["donor", "add", "--at", "2026-10-01T10:00", "--place", "NHS Leeds"]).status == 0)
    try #require(try a.run(["meds", "add", "Ramipril", "--at", "08:00"]).status == 0)
    try sync(a)
    try #require(try a.run(["remote", "encrypt", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)

    let c = try VitalHome()
    c.environment["VITAL_NOW"] = "2026-11-22T10:00:00Z"
    let notYet = try c.run(["remote", "set", server.url.absoluteString])
    expectCleanError(notYet, mentioning: "vital remote join")

    // A wrong password writes nothing here.
    let wrong = try c.run(
      ["remote", "join", server.url.absoluteString, "--email", "ann@example.org", "--password-stdin"],
      stdin: "not the password at all\n")
    expectCleanError(wrong, mentioning: "did not accept", "nothing was set up")
    expectCleanError(try c.run(["account", "whoami"]), mentioning: "not logged in")
    let unreachable = try c.run(
      ["remote", "join", "http://127.0.0.1:9", "--email", "ann@example.org", "--password-stdin"],
      stdin: serverPassword + "\n")
    #expect(unreachable.status == 1 && unreachable.stderr.hasPrefix("error: "), "\(unreachable.stderr)")
    expectCleanError(try c.run(["account", "whoami"]), mentioning: "not logged in")

    let joined = try c.run(
      [
        "remote", "join", server.url.absoluteString, "--email", "ann@example.org", "--password-stdin",
        "--passphrase-stdin", "--device-name", "kitchen laptop", "--json",
      ], stdin: serverPassword + "\n" + phrase + "\n")
    #expect(joined.status == 0, "\(joined.stderr)")
    #expect(joined.object?["encrypted"] as? Bool == true)
    #expect((joined.object?["pulled"] as? Int ?? 0) >= 3)
    let profile = try #require(try c.run(["profile", "show", "--json"]).object)
    #expect(
      profile["name"] as? String == "Ann" && profile["blood_type"] as? String == "O+"
        && profile["region"] as? String == "uk")
    #expect(try history(c).first?["place"] as? String == "NHS Leeds")
    #expect((try c.run(["meds", "list", "--json"]).json as? [Any])?.count == 1)
    let devices = try #require(try c.run(["remote", "devices", "--json"]).json as? [[String: Any]])
    #expect(devices.contains { $0["name"] as? String == "kitchen laptop" && $0["this"] as? Bool == true })
    // The local account takes the same password.
    #expect(try c.run(["account", "logout"]).status == 0)
    #expect(
      try c.run(["account", "login", "--email", "ann@example.org", "--password-stdin"], stdin: serverPassword + "\n")
        .status == 0)
    // Changes flow both ways from then on.
    try #require(try c.run(["cycle", "add", "--start", "2026-11-02", "--end", "2026-11-06"]).status == 0)
    #expect(try c.run(["sync"]).status == 0)
    try sync(a)
    #expect((try a.run(["cycle", "list", "--json"]).json as? [Any])?.count == 1)
  }
}
