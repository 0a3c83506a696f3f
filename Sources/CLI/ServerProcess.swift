import Foundation

/// Finds `vital-serve` next to this binary and replaces this process with it.
enum ServerProcess {
  static func exec(_ arguments: [String]) throws -> Never {
    let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("vital-serve").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CLIError.needsInput("the server binary vital-serve is not installed next to vital (\(path)); install both")
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    execv(path, argv)
    throw CLIError.needsInput("could not start \(path): \(String(cString: strerror(errno)))")
  }
}
