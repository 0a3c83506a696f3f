import Foundation

/// Vital's helper binaries (`vital-serve`, `vital-sync`, `vital-web`) live next to `vital`; a
/// command that needs one replaces this process with it, as git runs `git-*` programs.
public enum Sibling {
  /// Runs `name` with `arguments`. Options typed before the command's name (`vital --home DIR
  /// sync`) are the root command's, which a command passing its arguments on never sees: the
  /// data folder goes on in VITAL_HOME (a `--home` after the name still wins, as an option
  /// beats the environment), `--json` after the arguments.
  public static func exec(_ name: String, _ arguments: [String]) throws -> Never {
    let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CLIError.needsInput("\(name) is not installed next to vital (\(path)); install both")
    }
    let leading = leadingOptions(CommandLine.arguments)
    if let home = leading.home { setenv("VITAL_HOME", home, 1) }
    let handedOn = arguments + (leading.json && !arguments.contains("--json") ? ["--json"] : [])
    let argv = ([path] + handedOn).map { strdup($0) } + [nil]
    execv(path, argv)
    throw CLIError.needsInput("could not start \(path): \(String(cString: strerror(errno)))")
  }

  /// `--home DIR` (or `--home=DIR`) and `--json` among the options of `argv` (a whole command
  /// line, the program first) that come before the first word that is not an option; and
  /// `command`, that word's index, when those are the only options before it (a `--home`
  /// followed by a dash word names no folder), so that `exec` hands on all of them.
  public static func leadingOptions(_ argv: [String]) -> (home: String?, json: Bool, command: Int?) {
    var home: String?
    var json = false
    var handedOn = true
    var index = 1
    while index < argv.count, argv[index].hasPrefix("-") {
      let option = argv[index]
      if option == "--json" {
        json = true
      } else if option == "--home", index + 1 < argv.count, !argv[index + 1].hasPrefix("-") {
        home = argv[index + 1]
        index += 1
      } else if option.hasPrefix("--home=") {
        home = String(option.dropFirst("--home=".count))
      } else {
        handedOn = false
      }
      index += 1
    }
    return (home, json, handedOn && index < argv.count ? index : nil)
  }
}
