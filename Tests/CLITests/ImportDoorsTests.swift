import Cryptography
import Foundation
import Storage
import Testing

/// `vital import` and the other imports check every record as a command checks what is typed:
/// a refused file names the record and field, and nothing of it is kept.
@Suite struct ImportDoorsTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-26T08:00:00Z"
    try ExportImportTests.register(vital, "imports@example.org")
  }

  func ok(_ arguments: [String]) throws { try ExportImportTests.ok(vital, arguments) }

  /// An export of this home with `edit` applied to its text and its checksum made anew, as
  /// someone editing the file by hand would make it.
  func edited(_ edit: (String) -> String) throws -> String {
    let path = vital.root + "/export.json"
    try ok(["export", "--out", path])
    var text = edit(try String(contentsOfFile: path, encoding: .utf8))
    let body = String(text[..<text.range(of: "\"sha256\":", options: .backwards)!.lowerBound])
    text = body + "\"sha256\":\"" + Crypto.sha256Hex(Data(body.utf8)) + "\"}\n"
    let out = vital.root + "/edited-\(UUID().uuidString.prefix(6)).json"
    try text.write(toFile: out, atomically: true, encoding: .utf8)
    return out
  }

  func snapshot() throws -> String {
    try vital.run(["export"]).stdout.components(separatedBy: "\"sha256\"")[0]
  }

  @Test func anExportWithValuesNoCommandTakesIsRefusedWhole() throws {
    try ok(["donor", "add", "--at", "2026-10-01T10:00", "--place", "DRK", "--hb", "13.2"])
    try ok(["cycle", "add", "--start", "2026-11-02", "--end", "2026-11-06"])
    try ok(["meds", "add", "Metformin", "--at", "08:00", "--stock", "30"])
    try ok(["profile", "set", "--weight-kg", "62", "--birth-date", "1990-01-01"])
    let before = try snapshot()
    let cases: [(String, (String) -> String, [String])] = [
      ("Hb of 1e308", { $0.replacingOccurrences(of: "\"hb_g_dl\":13.2", with: "\"hb_g_dl\":1e308") }, ["hb_g_dl"]),
      (
        "a period start that is a number",
        { $0.replacingOccurrences(of: "\"start\":\"2026-11-02\"", with: "\"start\":12345") }, ["start"]
      ),
      (
        "a weight of 1e308", { $0.replacingOccurrences(of: "\"weight_kg\":62.0", with: "\"weight_kg\":1e308") },
        ["weight_kg"]
      ),
      ("a birth date in year 0", { $0.replacingOccurrences(of: "1990-01-01", with: "0000-01-01") }, ["birth_date"]),
      (
        "a stock of -99999999999", { $0.replacingOccurrences(of: "\"stock\":30", with: "\"stock\":-99999999999") },
        ["stock"]
      ),
      ("a time 25:99", { $0.replacingOccurrences(of: "\"times\":\"08:00\"", with: "\"times\":\"25:99\"") }, ["times"]),
      (
        "a donation in year 1",
        { $0.replacingOccurrences(of: "\"completed_at\":\"2026", with: "\"completed_at\":\"0001") }, ["completed_at"]
      ),
    ]
    let original = try vital.run(["export"]).stdout
    for (what, edit, words) in cases {
      #expect(edit(original) != original, "\(what): the edit finds its text")
      let file = try edited(edit)
      let run = try vital.run(["import", file])
      expectCleanError(run, mentioning: words[0], "nothing")
      #expect(try snapshot() == before, "\(what): nothing written")
    }
    // One record named twice.
    let twice = try edited { text in
      guard let line = text.split(separator: "\n").first(where: { $0.contains("\"place\":\"DRK\"") }) else {
        return text
      }
      return text.replacingOccurrences(of: String(line), with: String(line) + "\n" + String(line))
    }
    expectCleanError(try vital.run(["import", twice]), mentioning: "twice")
    #expect(try snapshot() == before)
  }

  @Test func aBlobWhoseIdIsNotItsHashIsRefused() throws {
    let png = vital.root + "/me.png"
    try TestImagesFile.png(at: png)
    try ok(["profile", "avatar", "set", png])
    let db = try Database(path: vital.home + "/vital.sqlite")
    let id = try #require(try db.scalar(String.self, "SELECT sha256 FROM blob"))
    let before = try snapshot()
    let forged = try edited { $0.replacingOccurrences(of: id, with: String(repeating: "a", count: 64)) }
    expectCleanError(try vital.run(["import", forged]), mentioning: "SHA-256")
    #expect(try snapshot() == before)
  }

  @Test func datesOutsideAnyHealthRecordAreRefusedAtTheCommandLine() throws {
    expectCleanError(
      try vital.run(["donor", "add", "--at", "0001-01-01T10:00", "--place", "X"]), mentioning: "1900 to 2200")
    #expect(try vital.run(["cycle", "add", "--start", "0000-01-01"]).status == 64)
    #expect(try vital.run(["profile", "set", "--birth-date", "9999-12-31"]).status == 64)
  }
}
