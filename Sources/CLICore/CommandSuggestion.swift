import ArgumentParser
import Foundation

/// "Did you mean …?" that reads the whole line: a misspelt or guessed command is matched with
/// the commands that take the options given after it (`vital donor create --at … --place …` →
/// `vital donor add`), and an option the command does not take is matched with the options it
/// does take, else named with the commands of its group that take it. A suggestion never names
/// a command that cannot take what was typed without saying so.
enum CommandSuggestion {
  enum Finding: Equatable {
    /// `typed` is no command of `group`; `suggestion` is the path of one that takes `given`
    /// but for `lacking`.
    case command(
      typed: String, group: String, suggestion: String?, lacking: [String], takers: [String], given: [String])
    /// `unknown` are options `command` does not take; `instead` is the one of its own meant,
    /// `takers` the commands of its group that take everything given.
    case options(command: String, unknown: [String], instead: String?, takers: [String], needsCommand: Bool)
  }

  /// What is wrong with `arguments` for the commands under `root`, when it is a command or an
  /// option a suggestion can help with.
  static func finding(in root: CommandTree, _ arguments: [String]) -> Finding? {
    var node = root
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" { break }
      if argument.hasPrefix("-") {
        // An option of a command further down, written too early, still has its value after it.
        if node.valued.contains(argument)
          || (!node.options.contains(argument) && node.leaves.contains { $0.valued.contains(argument) })
        {
          index += 1
        }
        continue
      }
      if node.children.isEmpty { break }
      if let next = node.named(argument) {
        node = next
        continue
      }
      return unknownCommand(argument, in: node, arguments)
    }
    let given = options(in: arguments[...])
    let unknown = given.filter { !node.options.contains($0) }
    guard let first = unknown.first else { return nil }
    let siblings = node.children.isEmpty ? (parent(of: node, in: root)?.children ?? []) : node.children
    let takers = siblings.flatMap(\.leaves).filter { $0.path != node.path && $0.takes(given) }.map(\.path)
    let instead = node.children.isEmpty && unknown.count == 1 ? nearestOption(first, in: node) : nil
    return .options(
      command: node.path, unknown: unknown, instead: instead, takers: takers,
      needsCommand: !node.children.isEmpty)
  }

  /// `typed` where a command of `node` was expected: the command meant, judged by its name and
  /// by the options the line gives it.
  private static func unknownCommand(_ typed: String, in node: CommandTree, _ arguments: [String]) -> Finding? {
    // Options every command takes (`--home`, `--json`) say nothing about which one was meant.
    let given = options(in: arguments[...]).filter { option in
      !node.options.contains(option) && !node.leaves.allSatisfy { $0.options.contains(option) }
    }
    let candidates = node.children.filter { $0.takes(given) }
    if let suggestion = suggest(typed, among: candidates) {
      return .command(typed: typed, group: node.path, suggestion: suggestion, lacking: [], takers: [], given: given)
    }
    // None takes everything typed: the command the name means, saying what it does not take.
    if !given.isEmpty, let named = suggest(typed, among: node.children),
      let command = node.children.first(where: {
        named.hasSuffix(" " + $0.name) || $0.aliases.contains { named.hasSuffix(" " + $0) }
      })
    {
      let lacking = given.filter { option in !command.leaves.contains { $0.options.contains(option) } }
      return .command(typed: typed, group: node.path, suggestion: named, lacking: lacking, takers: [], given: given)
    }
    let takers = given.isEmpty ? [] : node.leaves.filter { $0.takes(given) }.map(\.path)
    guard !takers.isEmpty else { return nil }
    return .command(typed: typed, group: node.path, suggestion: nil, lacking: [], takers: takers, given: given)
  }

  /// The options written in `words`, without their values: `--at=-3h` is `--at`.
  static func options(in words: ArraySlice<String>) -> [String] {
    var result: [String] = []
    for word in words {
      if word == "--" { break }
      guard word.hasPrefix("-"), word.count > 1, !(word.dropFirst().first?.isNumber ?? false) else { continue }
      let name = String(word.prefix { $0 != "=" })
      if !result.contains(name) { result.append(name) }
    }
    return result
  }

  private static func parent(of node: CommandTree, in root: CommandTree) -> CommandTree? {
    if root.children.contains(where: { $0.path == node.path }) { return root }
    for child in root.children { if let found = parent(of: node, in: child) { return found } }
    return nil
  }

  /// argument-parser's message for `error` with its first line saying what the whole line
  /// shows, or nil when argument-parser's own words are the best there is.
  static func message(for error: Error, root: ParsableCommand.Type, arguments: [String]) -> String? {
    // Help, the version and dump-help end parsing too, as a success: nothing to correct.
    guard root.exitCode(for: error) != .success else { return nil }
    guard let (tree, words) = CommandTree.around(arguments, under: root), let finding = finding(in: tree, words)
    else { return nil }
    var lines = root.fullMessage(for: error).components(separatedBy: "\n")
    guard !lines.isEmpty else { return nil }
    lines[0] = "Error: " + text(finding)
    return lines.joined(separator: "\n")
  }

  static func text(_ finding: Finding) -> String {
    switch finding {
    case .command(let typed, let group, let suggestion?, let lacking, _, _):
      let but =
        lacking.isEmpty ? "" : " It does not take \(list(lacking)): see '\(suggestion) --help'."
      return "Unknown command '\(typed)' for '\(group)'. Did you mean '\(suggestion)'?" + but
    case .command(let typed, let group, nil, _, let takers, let given):
      return "Unknown command '\(typed)' for '\(group)'. \(list(given)) \(given.count == 1 ? "is" : "are") taken by "
        + "\(names(takers))."
    case .options(let command, let unknown, let instead?, let takers, _):
      let elsewhere = takers.isEmpty ? "" : " (\(list(unknown)) is taken by \(names(takers)).)"
      return "Unknown option \(list(unknown)) for '\(command)'. Did you mean '\(instead)'?" + elsewhere
    case .options(let command, let unknown, nil, let takers, let needsCommand):
      let subject = "\(list(unknown)) \(unknown.count == 1 ? "is" : "are")"
      if needsCommand {
        return takers.isEmpty
          ? "'\(command)' needs a command, and none of its commands takes \(list(unknown)): see '\(command) --help'."
          : "'\(command)' needs a command: \(subject) taken by \(names(takers))."
      }
      let which = "Unknown option\(unknown.count == 1 ? "" : "s") \(list(unknown)) for '\(command)'"
      guard !takers.isEmpty else { return "\(which); see '\(command) --help' for the options it takes." }
      return "\(which); \(unknown.count == 1 ? "it is" : "they are") taken by \(names(takers))."
    }
  }

  private static func list(_ words: [String]) -> String {
    let quoted = words.map { "'\($0)'" }
    return quoted.count <= 1 ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
  }

  private static func names(_ paths: [String]) -> String {
    let shown = paths.prefix(6).map { "'\($0)'" }
    let more = paths.count > 6 ? " and \(paths.count - 6) more" : ""
    return shown.count <= 1 || !more.isEmpty
      ? shown.joined(separator: ", ") + more : shown.dropLast().joined(separator: ", ") + " and " + shown.last!
  }
}
