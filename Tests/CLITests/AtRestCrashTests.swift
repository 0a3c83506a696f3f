import AtRest
import Foundation
import Storage
import TestServer
import Testing

/// kill -9 at random moments of an encrypted bulk import and of `vital db encrypt`: afterwards
/// the home opens, SQLite finds nothing wrong, every page opens, and it holds all of the change
/// or none of it.
@Suite(.serialized) struct AtRestCrashTests {
  /// 50,000 rows in scripts/test, where the debug build imports them in about 4 s;
  /// VITAL_CRASH_ROWS=200000 runs the full size (a few minutes).
  static let rows = Int(ProcessInfo.processInfo.environment["VITAL_CRASH_ROWS"] ?? "") ?? 50_000
  static let runs = 20
  let phrase = "juniper kettle 1942 lighthouse"

  /// A donor CSV of `rows` completed donations 220 minutes apart, ids random.
  static func donorCSV(at path: String, rows: Int) throws {
    var text =
      "id,kind,status,scheduled_at,completed_at,place,notes,hb_g_dl,ferritin_ng_ml,bp_systolic,bp_diastolic,pulse_bpm\n"
    text.reserveCapacity(rows * 110)
    let end = ISO8601DateFormatter().date(from: "2026-11-01T00:00:00Z")!
    let formatter = ISO8601DateFormatter()
    let kinds = ["whole-blood", "plasma", "platelets", "double-red"]
    for i in 0..<rows {
      let at = formatter.string(from: end.addingTimeInterval(-Double(i) * 220 * 60))
      text += "\(UUID().uuidString.lowercased()),\(kinds[i % 4]),completed,,\(at),Centre \(i % 50),"
      text += i % 3 == 0 ? ",13.\(i % 10),,,,\n" : ",,,,,\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func newHome() throws -> VitalHome {
    let home = try VitalHome()
    home.environment["VITAL_NOW"] = "2026-11-20T10:00:00Z"
    home.environment["VITAL_KEYRING"] = "none"
    let file = home.root + "/passphrase"
    _ = FileManager.default.createFile(atPath: file, contents: Data((phrase + "\n").utf8))
    try #require(
      try home.run(
        ["account", "register", "--email", "ann@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n"
      )
      .status == 0)
    return home
  }

  /// Runs `vital ARGS` and kills it after `delay` seconds (if it is still running).
  func killed(_ home: VitalHome, _ arguments: [String], after delay: Double, stdin: String = "") throws -> Bool {
    let process = Process()
    process.executableURL = VitalHome.binary
    process.arguments = arguments + ["--home", home.home]
    var environment = TestServer.processEnvironment
    environment.merge(home.environment) { $1 }
    process.environment = environment
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    BrokenPipe.write(Data(stdin.utf8), to: input)
    Thread.sleep(forTimeInterval: delay)
    let wasRunning = process.isRunning
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    // One that ended before the kill ended well: a crash is not a run the kill missed.
    #expect(
      wasRunning || (process.terminationReason == .exit && process.terminationStatus == 0),
      "\(arguments) ended on its own with \(process.terminationStatus)")
    return wasRunning
  }

  /// The donations in the home's database, counted here rather than listed by a command
  /// (hundreds of thousands of rows of JSON per run); an encrypted one opens with `key`.
  func donations(_ home: VitalHome, sealed: Bool, newKey: Bool = false) throws -> Int {
    let path = home.home + "/vital.sqlite"
    if newKey { SealedPages.forget(databaseAt: path) }
    if sealed && !SealedPages.isRegistered(databaseAt: path) {
      try SealedDatabase(path: path).use(
        AtRestKeys.open(try AtRestHeader.read(fileAt: path).header, passphrase: phrase))
    }
    if !sealed { SealedPages.forget(databaseAt: path) }
    return try Database(path: path).scalar(Int.self, "SELECT count(*) FROM donation") ?? -1
  }

  func expectSound(_ home: VitalHome, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let check = try home.run(["db", "check", "--json"])
    #expect(check.status == 0, "\(check.stdout) \(check.stderr)", sourceLocation: sourceLocation)
  }

  @Test func aKilledEncryptedImportLeavesAllOfItOrNone() throws {
    let home = try newHome()
    let csv = home.root + "/donations.csv"
    try Self.donorCSV(at: csv, rows: Self.rows)
    let encrypted = try home.run(["db", "encrypt", "--passphrase-stdin"], stdin: "\(phrase)\n")
    try #require(encrypted.status == 0, "\(encrypted.stderr)")
    home.environment["VITAL_PASSPHRASE_FILE"] = home.root + "/passphrase"
    let pristine = home.root + "/pristine.sqlite"
    try FileManager.default.copyItem(atPath: home.home + "/vital.sqlite", toPath: pristine)

    // How long a whole import takes here, so that the kills fall anywhere inside one.
    let started = Date()
    let whole = try home.run(["donor", "import", csv])
    try #require(whole.status == 0, "\(whole.stderr)")
    var duration = Date().timeIntervalSince(started)
    #expect(try donations(home, sealed: true) == Self.rows)

    var interrupted = 0
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<Self.runs {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(home.home + "/vital.sqlite" + suffix) }
      try FileManager.default.copyItem(atPath: pristine, toPath: home.home + "/vital.sqlite")
      let delay = Double.random(in: 0.3...max(0.31, duration), using: &generator)
      if try killed(home, ["donor", "import", csv], after: delay) {
        interrupted += 1
      } else {
        // The first import was timed while other suites ran beside it: one that finished
        // sooner says the window is shorter, so later kills fall inside it.
        duration = min(duration, delay)
      }
      try expectSound(home)
      let count = try donations(home, sealed: true)
      #expect(count == 0 || count == Self.rows, "after a kill the import is all there or not at all, found \(count)")
    }
    #expect(interrupted >= Self.runs / 2, "most kills should land while the import runs (\(interrupted) did)")
  }

  @Test func aKilledEncryptLeavesThePlainOrTheEncryptedDatabaseWhole() throws {
    let home = try newHome()
    let csv = home.root + "/donations.csv"
    try Self.donorCSV(at: csv, rows: Self.rows)
    try #require(try home.run(["donor", "import", csv]).status == 0)
    let pristine = home.root + "/pristine.sqlite"
    try FileManager.default.copyItem(atPath: home.home + "/vital.sqlite", toPath: pristine)
    let input = "\(phrase)\n"

    let started = Date()
    let whole = try home.run(["db", "encrypt", "--passphrase-stdin"], stdin: input)
    try #require(whole.status == 0, "\(whole.stderr)")
    let duration = Date().timeIntervalSince(started)

    var outcomes: [String: Int] = [:]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<Self.runs {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(home.home + "/vital.sqlite" + suffix) }
      try FileManager.default.copyItem(atPath: pristine, toPath: home.home + "/vital.sqlite")
      home.environment["VITAL_PASSPHRASE_FILE"] = nil
      _ = try killed(
        home, ["db", "encrypt", "--passphrase-stdin"], after: Double.random(in: 0.1...duration, using: &generator),
        stdin: input)
      let sealed = (FileManager.default.contents(atPath: home.home + "/vital.sqlite") ?? Data()).starts(
        with: Data("vital-sealed-db".utf8))
      outcomes[sealed ? "encrypted" : "plain", default: 0] += 1
      if sealed { home.environment["VITAL_PASSPHRASE_FILE"] = home.root + "/passphrase" }
      try expectSound(home)
      #expect(try donations(home, sealed: sealed, newKey: true) == Self.rows)
    }
    #expect(outcomes.values.reduce(0, +) == Self.runs)
  }
}
