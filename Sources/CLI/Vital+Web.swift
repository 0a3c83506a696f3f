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
  /// The commands whose help is their sibling binary's: (binary, the arguments before --help).
  static let helpElsewhere: [String: (String, [String])] = [
    "web": ("vital-web", []), "sync": ("vital-sync", ["sync"]), "remote": ("vital-sync", ["remote"]),
  ]
}
