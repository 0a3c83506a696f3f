import Foundation
import TestImages
import TestServer
import Testing

extension SyncCLITests {
  /// `vital remote rotate-key` as a person runs it: the other device is asked for the
  /// passphrase on its next sync and then has what the rotating device has.
  @Test func aRotatedKeyAsksTheOtherDeviceForThePassphrase() async throws {
    let phrase = "our family sync phrase"
    try passQuestionnaire(a)
    #expect(try a.run(["donor", "book", "--at", "2026-12-20T09:30", "--place", "Praxis Geheimweg 7"]).status == 0)
    try sync(a)
    expectCleanError(
      try a.run(["remote", "rotate-key", "--passphrase-stdin"], stdin: phrase + "\n"), mentioning: "is off")
    #expect(try a.run(["remote", "encrypt", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)
    #expect(try b.run(["sync", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)

    let rotated = try a.run(
      ["remote", "rotate-key", "--passphrase-stdin", "--json"], stdin: "a phrase after the loss\n")
    #expect(rotated.status == 0, "\(rotated.stderr)")
    let answer = try #require(rotated.object)
    #expect(answer["rotated"] as? Bool == true)
    #expect((answer["pushed"] as? Int ?? 0) > 0)
    #expect(answer["key_id"] as? String != answer["old_key_id"] as? String)
    #expect(try a.run(["donor", "cancel"]).status == 0)
    try sync(a)

    // b holds the old key: its sync is refused until it enters the passphrase, the old one fails.
    expectCleanError(try b.run(["sync"]), mentioning: "rotated", "passphrase")
    expectCleanError(
      try b.run(["sync", "--passphrase-stdin"], stdin: phrase + "\n"), mentioning: "wrong sync passphrase")
    let again = try b.run(["sync", "--passphrase-stdin", "--json"], stdin: "a phrase after the loss\n")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try history(b).first?["status"] as? String == "cancelled")
  }
}
