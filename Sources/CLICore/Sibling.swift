import Foundation

/// Vital's helper binaries (`vital-serve`, `vital-sync`) live next to `vital`; a command that
/// needs one replaces this process with it, as git runs `git-*` programs.
public enum Sibling {
  public static func exec(_ name: String, _ arguments: [String]) throws -> Never {
    let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CLIError.needsInput("\(name) is not installed next to vital (\(path)); install both")
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    execv(path, argv)
    throw CLIError.needsInput("could not start \(path): \(String(cString: strerror(errno)))")
  }
}
