import Foundation
import Testing

extension SyncCLITests {
  /// One device keeps its database encrypted at rest and both sync with end-to-end encryption:
  /// records go both ways, and the encrypted device's files hold none of them in the clear.
  @Test func aDeviceEncryptedAtRestSyncsBothWaysEndToEnd() throws {
    let rest = "juniper kettle 1942 lighthouse"
    let encrypted = try a.run(["db", "encrypt", "--passphrase-stdin", "--json"], stdin: "\(rest)\n")
    try #require(encrypted.status == 0, "\(encrypted.stderr)")
    if encrypted.object?["unlocked_until"] is NSNull {
      let file = a.root + "/passphrase"
      _ = FileManager.default.createFile(atPath: file, contents: Data((rest + "\n").utf8))
      a.environment["VITAL_PASSPHRASE_FILE"] = file
    }
    try passQuestionnaire(a)
    #expect(try a.run(["donor", "book", "--at", "2026-12-20T09:30", "--place", "Praxis Verborgen 3"]).status == 0)
    try sync(a)
    let phrase = "our family sync phrase"
    let on = try a.run(["remote", "encrypt", "--passphrase-stdin"], stdin: phrase + "\n")
    #expect(on.status == 0, "\(on.stderr)")

    #expect(try b.run(["sync", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)
    #expect(try history(b).first?["place"] as? String == "Praxis Verborgen 3")
    let noted = try b.run(["cycle", "note", "--date", "2026-11-20", "--text", "Notiz von Gerät B"])
    #expect(noted.status == 0, "\(noted.stderr)")
    try sync(b)
    try sync(a)
    let day = try a.run(["cycle", "day", "2026-11-20", "--json"])
    #expect(day.object?["text"] as? String == "Notiz von Gerät B", "\(day.stdout) \(day.stderr)")

    for file in try FileManager.default.contentsOfDirectory(atPath: a.home) {
      let bytes = FileManager.default.contents(atPath: a.home + "/" + file) ?? Data()
      #expect(bytes.range(of: Data("Verborgen".utf8)) == nil, "\(file) holds a record in the clear")
      #expect(bytes.range(of: Data("Notiz von".utf8)) == nil, "\(file) holds a record in the clear")
    }
    #expect(try a.run(["db", "check"]).status == 0)
  }
}
