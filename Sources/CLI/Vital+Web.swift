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
  static let siblingCommands: [String: (String, [String])] = [
    "web": ("vital-web", []), "sync": ("vital-sync", ["sync"]), "remote": ("vital-sync", ["remote"]),
  ]

  /// The sibling binary and its arguments when `argv` (the whole command line) names a
  /// command that runs elsewhere, after none but the options `Sibling.exec` hands on itself; nil
  /// for any other command line, which the parser then reads as usual, errors and help included.
  static func passthrough(_ argv: [String]) -> (binary: String, arguments: [String])? {
    guard let at = Sibling.leadingOptions(argv).command, let (binary, prefix) = siblingCommands[argv[at]] else {
      return nil
    }
    return (binary, prefix + argv[(at + 1)...])
  }
}
