import Foundation
import Testing

/// Every read of stdin or a file is bounded before it is read whole: a device without end on
/// stdin, or a sparse 3 GB file, gets one clear error at once.
@Suite struct BoundedInputTests {
  let vital: VitalHome
  let password = "lilac harbour 1987 teaspoon"

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T20:00:00Z"
  }

  @Test func endlessStdinIsRefusedByEveryReader() throws {
    expectCleanError(
      try vital.run(
        ["account", "register", "--email", "zero@example.org", "--password-stdin"], stdinFile: "/dev/zero"),
      mentioning: "stdin")
    let registered = try vital.run(
      ["account", "register", "--email", "zero@example.org", "--password-stdin"], stdin: password + "\n")
    try #require(registered.status == 0, "\(registered.stderr)")
    expectCleanError(
      try vital.run(["account", "login", "--email", "zero@example.org", "--password-stdin"], stdinFile: "/dev/zero"),
      mentioning: "stdin")
    expectCleanError(
      try vital.run(["donor", "questionnaire", "--answers", "-"], stdinFile: "/dev/zero"), mentioning: "1 MiB")
    #expect(try vital.run(["remote", "set", "http://127.0.0.1:9"]).status == 0)
    let districts = HealthCLITests.fixtures + "/geo/bavaria-districts-rki-2020-10-15.geojson"
    #expect(try vital.run(["area", "import", districts]).status == 0)
    expectCleanError(
      try vital.run(["remote", "login", "--password-stdin"], stdinFile: "/dev/zero"), mentioning: "stdin")
    expectCleanError(
      try vital.run(["area", "locate", "--points", "-"], stdinFile: "/dev/zero"), mentioning: "MiB")
  }

  @Test func aHugeFileIsRefusedBeforeItIsRead() throws {
    let registered = try vital.run(
      ["account", "register", "--email", "big@example.org", "--password-stdin"], stdin: password + "\n")
    try #require(registered.status == 0, "\(registered.stderr)")
    let path = vital.root + "/answers.json"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    // Sparse: 3 GB long, nothing on disk. Read whole, it would take 3 GB of memory first.
    #expect(truncate(path, 3 << 30) == 0)
    let districts = HealthCLITests.fixtures + "/geo/bavaria-districts-rki-2020-10-15.geojson"
    #expect(try vital.run(["area", "import", districts]).status == 0)
    expectCleanError(try vital.run(["donor", "questionnaire", "--answers", path]), mentioning: "larger than 1 MiB")
    for command in [["area", "import", path], ["area", "stats", path], ["goals", "import", path]] {
      expectCleanError(try vital.run(command), mentioning: "larger than")
    }
    expectCleanError(
      try vital.run(["donor", "questionnaire", "--answers", "/dev/zero"]), mentioning: "not a regular file")
  }
}
