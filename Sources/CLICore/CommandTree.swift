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

  /// The commands a suggestion for `arguments` needs, and the words left for them: the group
  /// the line's command names lead to (for a command, its own group, where its siblings are).
  /// Describing every command of `vital` took most of a tenth of a second on each slip; the
  /// names lead there through the command types alone, and one group is a few milliseconds.
  static func around(_ arguments: [String], under root: ParsableCommand.Type) -> (
    tree: CommandTree, words: [String]
  )? {
    var stack: [ParsableCommand.Type] = [root]
    for word in arguments {
      guard !word.hasPrefix("-"),
        let next = stack[stack.count - 1].configuration.subcommands.first(where: {
          $0._commandName == word || $0.configuration.aliases.contains(word)
        })
      else { break }
      stack.append(next)
    }
    if stack.count > 1, stack[stack.count - 1].configuration.subcommands.isEmpty { stack.removeLast() }
    guard let data = stack[stack.count - 1]._dumpHelp().data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let command = object["command"] as? [String: Any]
    else { return nil }
    // argument-parser gives every command under a root with a version its --version, and a group
    // described on its own has no root above it.
    let inherited: Set<String> = stack.count > 1 && !root.configuration.version.isEmpty ? ["--version"] : []
    let parent = stack.dropLast().map { $0._commandName }.joined(separator: " ")
    return (
      CommandTree(command, parent: parent.isEmpty ? nil : parent, inherited: inherited),
      Array(arguments.dropFirst(stack.count - 1))
    )
  }

  private init(_ command: [String: Any], parent: String?, inherited: Set<String>) {
    let name = command["commandName"] as? String ?? ""
    self.name = name
    aliases = command["aliases"] as? [String] ?? []
    path = parent.map { "\($0) \(name)" } ?? name
    var options = inherited
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
    children = (command["subcommands"] as? [[String: Any]] ?? []).map {
      CommandTree($0, parent: path, inherited: inherited)
    }
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
