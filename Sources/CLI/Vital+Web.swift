import ArgumentParser
import CLICore

extension Vital {
  /// `vital web` runs in vital-web, which carries the HTTP server.
  struct WebPassthrough: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "web", abstract: "Your record in a browser on this machine: the same database, the same undo.")
    @Argument(
      parsing: .captureForPassthrough, help: "[--listen HOST:PORT] [--open] [--allow-remote] [--home DIR]")
    var arguments: [String] = []

    func run() async throws { try Sibling.exec("vital-web", arguments) }
  }
}

extension Vital {
  /// The commands that run in a sibling binary, whose help is that binary's too: (binary, the
  /// arguments before the command's own).
  static let helpElsewhere: [String: (String, [String])] = [
    "web": ("vital-web", []), "sync": ("vital-sync", ["sync"]), "remote": ("vital-sync", ["remote"]),
  ]

  /// The sibling binary and its arguments when `arguments` (the command line after the
  /// program) names a command that runs elsewhere, after none but the options `Sibling.exec`
  /// hands on itself (`--home DIR`, `--json`); nil for any other command line, which the
  /// parser then reads as usual, errors and help included.
  static func passthrough(_ arguments: [String]) -> (binary: String, arguments: [String])? {
    var index = 0
    while index < arguments.count, arguments[index].hasPrefix("-") {
      switch arguments[index] {
      case "--json": index += 1
      // A dash word is no folder: the parser says what is missing.
      case "--home" where index + 1 < arguments.count && !arguments[index + 1].hasPrefix("-"): index += 2
      case let option where option.hasPrefix("--home="): index += 1
      default: return nil
      }
    }
    guard index < arguments.count, let (binary, prefix) = helpElsewhere[arguments[index]] else { return nil }
    return (binary, prefix + arguments[(index + 1)...])
  }
}
