import Foundation
import TestServer
import Testing

/// The result of one run of the real `vital` binary.
struct Run {
  let status: Int32
  let stdout: String
  let stderr: String

  /// stdout parsed as JSON; nil when it is not exactly one JSON document.
  var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed]) }
  var object: [String: Any]? { json as? [String: Any] }
  var stderrLines: [Substring] { stderr.split(separator: "\n") }
}

/// A temporary home and a way to run `vital` against it.
final class VitalHome {
  let root: String
  var home: String { root + "/home" }
  var environment: [String: String] = ["TZ": "Europe/Berlin", "NO_COLOR": "1"]

  static let binary: URL = {
    let env = ProcessInfo.processInfo.environment
    if let path = env["VITAL_BIN"] { return URL(fileURLWithPath: path) }
    return Bundle.main.bundleURL.appendingPathComponent("vital")
  }()

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-cli-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    root = String(cString: made)
    chmod(root, 0o755)  // so an unprivileged user can reach folders inside it
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  enum HomeChoice {
    case temporary  // this test's own home
    case unset  // no --home: the environment decides
    case path(String)
  }

  /// Runs `vital ARGS --home HOME`.
  @discardableResult
  func run(
    _ arguments: [String], home: HomeChoice = .temporary, stdin: String? = nil, stdinFile: String? = nil,
    asUser: String? = nil
  ) throws -> Run {
    var args = arguments
    switch home {
    case .temporary: args += ["--home", self.home]
    case .unset: break
    case .path(let path): args += ["--home", path]
    }
    let process = Process()
    if let asUser {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        [
          "--reuid=\(asUser)", "--regid=\(asUser == "nobody" ? "nogroup" : asUser)", "--clear-groups",
          try reachableCopy(),
        ]
        + args
    } else {
      process.executableURL = Self.binary
      process.arguments = args
    }
    var env = TestServer.processEnvironment
    env.merge(environment) { $1 }
    process.environment = env
    let out = root + "/.stdout-\(UUID().uuidString)"
    let err = root + "/.stderr-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: out)
      try? FileManager.default.removeItem(atPath: err)
    }
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    let input = Pipe()
    if let stdinFile {
      process.standardInput = FileHandle(forReadingAtPath: stdinFile)
    } else {
      process.standardInput = input
    }
    try process.run()
    BrokenPipe.write(Data((stdin ?? "").utf8), to: input)
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus,
      stdout: try String(contentsOfFile: out, encoding: .utf8),
      stderr: try String(contentsOfFile: err, encoding: .utf8))
  }

  /// The binary copied into this test's folder (0755): the checkout it was built in may sit
  /// under a folder other users cannot enter, such as /root.
  func reachableCopy() throws -> String {
    let copy = root + "/vital"
    if !FileManager.default.fileExists(atPath: copy) {
      try FileManager.default.copyItem(atPath: Self.binary.path, toPath: copy)
      chmod(copy, 0o755)
    }
    return copy
  }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o777
  }
}

/// Runs one of the checkout's Python checkers (`scripts/check-ics`, ...) through scripts/py, in
/// the virtual environment scripts/bootstrap made, and gives its stdout; it must exit 0.
func runChecker(_ script: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
  -> Data
{
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let check = Process()
  check.executableURL = root.appendingPathComponent("scripts/py")
  check.arguments = [root.appendingPathComponent("scripts/\(script)").path] + arguments
  let out = Pipe()
  check.standardOutput = out
  try check.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  check.waitUntilExit()
  try #require(check.terminationStatus == 0, "scripts/\(script) refused the file", sourceLocation: sourceLocation)
  return data
}

/// One clear line on stderr that starts with `error:`, nothing on stdout, exit 1.
func expectCleanError(_ run: Run, mentioning words: String..., sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(run.status == 1, "exit status", sourceLocation: sourceLocation)
  #expect(run.stderrLines.count == 1, "one line on stderr, got: \(run.stderr)", sourceLocation: sourceLocation)
  #expect(run.stderr.hasPrefix("error: "), "got: \(run.stderr)", sourceLocation: sourceLocation)
  for word in words {
    #expect(run.stderr.contains(word), "stderr should mention \(word): \(run.stderr)", sourceLocation: sourceLocation)
  }
}

extension VitalHome {
  /// A complete profile (a woman in Germany) and a questionnaire answered "no" throughout:
  /// what booking needs.
  func becomeADonorWhoMayBook() throws {
    let profile = try run(
      ["profile", "set", "--sex", "female", "--birth-date", "1990-01-01", "--weight-kg", "62", "--region", "de"])
    try #require(profile.status == 0, "\(profile.stderr)")
    let questions = try #require(try run(["donor", "questions", "--json"]).json as? [[String: Any]])
    let answers = Dictionary(uniqueKeysWithValues: questions.compactMap { $0["id"] as? String }.map { ($0, false) })
    let answered = try run(
      ["donor", "questionnaire", "--answers", "-"],
      stdin: String(decoding: try JSONSerialization.data(withJSONObject: answers), as: UTF8.self))
    try #require(answered.status == 0, "\(answered.stderr)")
  }
}
