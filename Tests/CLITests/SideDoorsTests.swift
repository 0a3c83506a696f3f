import Foundation
import Testing

/// What arrives through a side door is checked as what comes through the front: terminal escapes
/// in stored text are shown, never obeyed, and `--out` writes only regular files.
@Suite struct SideDoorsTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-26T08:00:00Z"
    try ExportImportTests.register(vital, "doors@example.org")
  }

  func ok(_ arguments: [String]) throws -> Run {
    let run = try vital.run(arguments)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    return run
  }

  /// A place holding "set the window title", a note "clear the screen" and "write the
  /// clipboard" were printed raw by `donor history`, `donor show`, `cycle notes` and `cycle day`.
  @Test func terminalEscapesInStoredTextAreShownNotObeyed() throws {
    let title = "DRK\u{1B}]0;pwned\u{07} Mitte"
    let clear = "felt fine\u{1B}[2J\u{1B}]52;c;ZXZpbA==\u{07}\u{9B}31m"
    try _ = ok(["donor", "add", "--at", "2026-11-01T10:00", "--place", title, "--notes", clear])
    try _ = ok(["cycle", "note", "--date", "2026-11-20", "--text", clear])
    let id = String(
      try #require((try ok(["donor", "list", "--json"]).json as? [[String: Any]])?.first?["id"] as? String).prefix(8))
    for command in [
      ["donor", "history"], ["donor", "show", id], ["cycle", "notes"], ["cycle", "day", "2026-11-20"],
      ["undo", "--list"],
    ] {
      let out = try ok(command).stdout
      #expect(
        !out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B },
        "\(command): \(out.debugDescription)")
      #expect(out.contains("\\x1b"), "\(command) shows the escape: \(out)")
    }
    #expect(try ok(["donor", "history"]).stdout.contains("DRK\\x1b]0;pwned\\x07 Mitte"))
    // JSON keeps the text, escaped as JSON escapes it; the error line too is safe.
    let json = try ok(["donor", "list", "--json"]).stdout
    #expect(json.contains("\\u001b]0;pwned\\u0007"), "\(json)")
    let refused = try vital.run(["meds", "show", "no\u{1B}[2Jsuch"])
    #expect(refused.status == 1 && !refused.stderr.contains("\u{1B}"), "\(refused.stderr.debugDescription)")
  }

  /// `vital report --out /dev/full` replaced the device node with a regular file; export, donor
  /// export and reminders ics did the same to a FIFO, a device and a symlink.
  @Test func outWritesOnlyRegularFiles() throws {
    let folder = vital.root + "/targets"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let fifo = folder + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let real = folder + "/real.txt"
    try "keep me".write(toFile: real, atomically: true, encoding: .utf8)
    let link = folder + "/link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    var targets = [(fifo, "FIFO"), (link, "symbolic link"), (folder, "folder")]
    let device = folder + "/null"
    if mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) /* makedev(1, 3): /dev/null */ == 0 {
      targets.append((device, "device"))
    }
    for (target, what) in targets {
      for command in [
        ["export", "--out", target], ["donor", "export", "--out", target], ["reminders", "ics", "--out", target],
        ["report", "--out", target], ["cycle", "export", "--out", target], ["db", "backup", target, "--force"],
        ["export", "--format", "csv", "--kind", "goals", "--out", target],
      ] {
        let run = try vital.run(command)
        expectCleanError(run, mentioning: "cannot write")
        #expect(run.stderr.contains(target), "\(command) on a \(what): \(run.stderr)")
      }
    }
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
    #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link is still a link")
    #expect(try String(contentsOfFile: real, encoding: .utf8) == "keep me", "nothing written through the link")
    if targets.count == 4 { #expect(lstat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "still a device") }
    // Nothing left behind: no partial file beside the targets.
    let expected = ["fifo", "link", "real.txt"] + (targets.count == 4 ? ["null"] : [])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == expected.sorted())
    // A regular file is replaced as before.
    #expect(try vital.run(["export", "--out", real]).status == 0)
  }
}
