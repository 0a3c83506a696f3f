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

  @Test func sigkillDuringALargeWriteLeavesTheCommittedContent() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("crash.sqlite")
    let seed = writer(["seed", path, "1000"])
    try seed.run()
    seed.waitUntilExit()
    try #require(seed.terminationStatus == 0)
    let before = try dump(Database(path: path))
    #expect(before.count == 1000)

    let flood = writer(["flood", path])
    let pipe = Pipe()
    flood.standardOutput = pipe
    try flood.run()
    let said = String(decoding: pipe.fileHandleForReading.readData(ofLength: 8), as: UTF8.self)
    try #require(said == "writing\n", "the writer should report that its transaction is under way")
    let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    #expect(walSize > 1_000_000, "uncommitted pages should have spilled into the WAL")
    kill(flood.processIdentifier, SIGKILL)
    flood.waitUntilExit()
    #expect(flood.terminationReason == .uncaughtSignal)

    let db = try Database(path: path)
    #expect(try db.integrityProblems() == [])
    #expect(try dump(db) == before)
  }
}
