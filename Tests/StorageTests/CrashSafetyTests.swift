import Foundation
import Testing

@testable import Storage

@Suite struct CrashSafetyTests {
  func writer(_ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("storage-writer")
    process.arguments = arguments
    return process
  }

  /// In the log, and with a rollback journal (a bulk write), whose pages went into the database
  /// file itself: the journal left behind puts them back.
  @Test(arguments: ["flood", "flood-journal"])
  func sigkillDuringALargeWriteLeavesTheCommittedContent(mode: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.file("crash.sqlite")
    let seed = writer(["seed", path, "1000"])
    try seed.run()
    seed.waitUntilExit()
    try #require(seed.terminationStatus == 0)
    let before = try dump(Database(path: path))
    #expect(before.count == 1000)

    let flood = writer([mode, path])
    let pipe = Pipe()
    flood.standardOutput = pipe
    try flood.run()
    let said = String(decoding: pipe.fileHandleForReading.readData(ofLength: 8), as: UTF8.self)
    try #require(said == "writing\n", "the writer should report that its transaction is under way")
    let spilled = mode == "flood" ? path + "-wal" : path
    let size = (try? FileManager.default.attributesOfItem(atPath: spilled)[.size] as? Int) ?? 0
    #expect(size > 2_000_000, "uncommitted pages should have spilled into \(spilled)")
    if mode == "flood-journal" { #expect(FileManager.default.fileExists(atPath: path + "-journal")) }
    kill(flood.processIdentifier, SIGKILL)
    flood.waitUntilExit()
    #expect(flood.terminationReason == .uncaughtSignal)

    let db = try Database(path: path)
    #expect(try db.integrityProblems() == [])
    #expect(try dump(db) == before)
    #expect(try db.scalar(String.self, "PRAGMA journal_mode") == "wal")
  }
}
