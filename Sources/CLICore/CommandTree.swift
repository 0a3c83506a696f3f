import ArgumentParser
import Foundation

/// The commands of a binary with their names, aliases and the options each takes, read from
/// argument-parser's own description of them (the JSON behind `--experimental-dump-help`), so
/// that what a suggestion says a command takes is what its parser takes.
struct CommandTree {
  let name: String
  let aliases: [String]
  /// `--at`, `-h`: every option and flag, with its dashes.
  let options: Set<String>
  /// The options among them that take a value.
  let valued: Set<String>
  /// Options without which the command does not run.
  let required: [String]
  let children: [CommandTree]
  /// `vital donor add`.
  let path: String

  init?(_ root: ParsableCommand.Type) {
    guard let data = root._dumpHelp().data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let command = object["command"] as? [String: Any]
    else { return nil }
    self.init(command, parent: nil)
  }

  private init(_ command: [String: Any], parent: String?) {
    let name = command["commandName"] as? String ?? ""
    self.name = name
    aliases = command["aliases"] as? [String] ?? []
    path = parent.map { "\($0) \(name)" } ?? name
    var options: Set<String> = []
    var valued: Set<String> = []
    var required: [String] = []
    for argument in command["arguments"] as? [[String: Any]] ?? [] {
      guard let kind = argument["kind"] as? String, kind != "positional" else { continue }
      let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { entry -> String? in
        guard let text = entry["name"] as? String else { return nil }
        return (entry["kind"] as? String == "short" ? "-" : "--") + text
      }
      options.formUnion(names)
      if kind == "option" { valued.formUnion(names) }
      if kind == "option", argument["isOptional"] as? Bool == false,
        let first = names.first(where: { $0.hasPrefix("--") })
      {
        required.append(first)
      }
    }
    self.options = options
    self.valued = valued
    self.required = required
    let path = self.path
    children = (command["subcommands"] as? [[String: Any]] ?? []).map { CommandTree($0, parent: path) }
      .filter { $0.name != "help" }
  }

  func named(_ word: String) -> CommandTree? {
    children.first { $0.name == word || $0.aliases.contains(word) }
  }

  /// Whether this command, or for a group any command under it, takes every option given.
  func takes(_ given: [String]) -> Bool {
    if children.isEmpty { return given.allSatisfy(options.contains) }
    return given.isEmpty || children.contains { $0.takes(given) }
  }

  /// Every command without subcommands at or under this one.
  var leaves: [CommandTree] { children.isEmpty ? [self] : children.flatMap(\.leaves) }
}
