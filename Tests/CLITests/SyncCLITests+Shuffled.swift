import Foundation
import Testing

/// The user's path (issue 46): a donor CSV another program wrote, ids random and dates shuffled,
/// imported on one device and synced to another, then exported.
extension SyncCLITests {
  /// Writes `rows` shuffled donations with `scripts/gen-import-files donors`.
  static func shuffledDonors(_ file: String, rows: Int) throws {
    let gen = Process()
    gen.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    gen.arguments = [
      HealthTotalsCLITests.root.appendingPathComponent("scripts/gen-import-files").path, "donors", file, String(rows),
    ]
    try gen.run()
    gen.waitUntilExit()
    try #require(gen.terminationStatus == 0, "the generator failed")
  }

  /// More rows than an import takes one by one, so that the bulk path (indexes built after) is
  /// the one synced.
  @Test func aShuffledImportSyncsToTheSameHistoryAndExportsInOrder() throws {
    let file = root.root + "/donors.csv"
    try Self.shuffledDonors(file, rows: 12_000)
    let imported = try a.run(["donor", "import", file, "--json"])
    try #require(imported.status == 0, "\(imported.stderr)")
    #expect(imported.object?["inserted"] as? Int == 12_000)
    try sync(a)
    try sync(b)
    let there = try a.run(["donor", "history", "--json"])
    let here = try b.run(["donor", "history", "--json"])
    #expect((there.json as? [Any])?.count == 12_000)
    #expect(there.stdout == here.stdout, "both devices hold the same history, field for field")

    // The export is the file's rows, newest first and by id at one moment, times in the zone.
    a.environment["TZ"] = "UTC"
    let exported = try a.run(["donor", "export", "--format", "csv"])
    try #require(exported.status == 0, "\(exported.stderr)")
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
    let rows = lines.dropFirst().map { line -> (at: String, id: String, line: String) in
      let id = String(line.prefix(36))
      let at = line.split(separator: ",", omittingEmptySubsequences: false)[4]
      return (String(at), id, line.replacingOccurrences(of: ",\(at),", with: ",\(at.dropLast())+00:00,"))
    }
    let sorted = rows.sorted { $0.at != $1.at ? $0.at > $1.at : $0.id < $1.id }
    // RFC 4180's line ends, as the export writes them.
    let expected = ([lines[0]] + sorted.map(\.line)).joined(separator: "\r\n") + "\r\n"
    let mismatch = zip(exported.stdout.split(separator: "\r\n"), expected.split(separator: "\r\n")).first { $0 != $1 }
    #expect(
      exported.stdout == expected,
      "the export equals the generated rows sorted; first difference: \(mismatch.map { "\($0.0) ≠ \($0.1)" } ?? "none")"
    )
    #expect(Set(sorted.map(\.at)).count < sorted.count, "some donations share a moment, ordered by id")
  }
}
