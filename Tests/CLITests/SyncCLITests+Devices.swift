import Foundation
import TestImages
import TestServer
import Testing

extension SyncCLITests {
  func devices(_ device: VitalHome) throws -> [[String: Any]] {
    let run = try device.run(["remote", "devices", "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    return run.json as? [[String: Any]] ?? []
  }

  /// Each login names its device; `remote devices` lists them from any device and `remote revoke`
  /// ends one at once (its next call gets 401), on either backend.
  @Test func devicesAreListedAndRevokedOneByOne() async throws {
    let host = ProcessInfo.processInfo.hostName
    var list = try devices(a)
    #expect(list.map { $0["name"] as? String } == [host, host], "a and b logged in under the host name")
    #expect(list.map { $0["this"] as? Bool } == [true, false])
    for entry in list {
      #expect((entry["id"] as? String)?.count == 16)
      #expect(entry["first_seen"] is String && entry["last_seen"] is String)
    }
    expectCleanError(try a.run(["remote", "revoke", host]), mentioning: "give the id")
    expectCleanError(try a.run(["remote", "revoke", "no-such-device"]), mentioning: "vital remote devices")

    // Logging in again under a name ends the device's old session: still one entry for b.
    let relogin = try b.run(
      ["remote", "login", "--password-stdin", "--device-name", "work laptop"], stdin: serverPassword + "\n")
    #expect(relogin.status == 0, "\(relogin.stderr)")
    let c = try VitalHome()
    c.environment["VITAL_NOW"] = "2026-11-22T10:00:00Z"
    _ = try c.run(
      ["account", "register", "--email", "ann@example.org", "--password-stdin"], stdin: localPassword + "\n")
    _ = try c.run(["remote", "set", server.url.absoluteString])
    let phone = try c.run(
      ["remote", "login", "--password-stdin", "--device-name", "old phone", "--json"], stdin: serverPassword + "\n")
    #expect(phone.status == 0, "\(phone.stderr)")
    try sync(c)
    list = try devices(b)
    #expect(list.map { $0["name"] as? String } == [host, "work laptop", "old phone"])
    #expect(list.map { $0["this"] as? Bool } == [false, true, false])
    let text = try b.run(["remote", "devices"])
    #expect(text.stdout.contains("old phone") && text.stdout.contains("this device"))

    // Revoked by name from b: the phone's next call is refused, the others go on.
    let revoked = try b.run(["remote", "revoke", "Old Phone", "--json"])
    #expect(revoked.status == 0, "\(revoked.stderr)")
    #expect(revoked.object?["name"] as? String == "old phone")
    #expect(revoked.object?["this"] as? Bool == false)
    expectCleanError(try c.run(["sync"]), mentioning: "log in")
    try sync(a)
    try sync(b)
    #expect(try devices(a).count == 2)

    // A device may sign itself out, by an id prefix: it is then logged out here too.
    let own = try #require(try devices(a).first { $0["this"] as? Bool == true }?["id"] as? String)
    let itself = try a.run(["remote", "revoke", String(own.prefix(6)), "--json"])
    #expect(itself.status == 0, "\(itself.stderr)")
    #expect(itself.object?["this"] as? Bool == true)
    #expect(try a.run(["remote", "status", "--json"]).object?["logged_in"] as? Bool == false)
    #expect(try devices(b).map { $0["name"] as? String } == ["work laptop"])

    // A name the server would refuse is a usage error here first (argument-parser's wording, 64).
    let bad = try c.run(
      ["remote", "login", "--password-stdin", "--device-name", "tab\there"], stdin: serverPassword + "\n")
    #expect(bad.status == 64 && bad.stderr.contains("--device-name takes 1 to 64 characters"), "\(bad.stderr)")
  }
}
