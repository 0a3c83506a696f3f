import ArgumentParser
import Foundation

/// "Did you mean …?" that reads the whole line: a misspelt or guessed command is matched with
/// the commands that take the options given after it (`vital donor create --at … --place …` →
/// `vital donor add`), and an option the command does not take names the commands of its group
/// that do. Never a suggestion that cannot take what was typed.
enum CommandSuggestion {
  /// What people type for each verb the commands use, in the order they are tried (`move`
  /// is a reschedule where there is one, else an edit).
  static let synonyms: [(verb: String, words: [String])] = [
    ("add", ["create", "new", "insert", "log", "record", "enter", "put", "make"]),
    ("delete", ["remove", "rm", "del", "drop", "erase"]),
    ("reschedule", ["move", "postpone", "rebook"]),
    ("edit", ["update", "change", "modify", "set", "correct", "fix", "move"]),
    ("show", ["view", "get", "info", "display", "open", "cat", "details", "describe"]),
    ("list", ["ls", "all", "history", "index", "entries"]),
    ("export", ["dump", "save", "download", "csv", "backup"]),
    ("import", ["load", "upload"]),
  ]

  enum Finding: Equatable {
    /// `typed` is no command of `group`; `suggestion` is the path of one that takes `given`.
    case command(typed: String, group: String, suggestion: String?, takers: [String], given: [String])
    /// `unknown` are options `command` does not take; `takers` are the commands of its group
    /// that take everything given.
    case options(command: String, unknown: [String], takers: [String], needsCommand: Bool)
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
        if node.valued.contains(argument) || (!node.options.contains(argument) && node.leaves.contains {
          $0.valued.contains(argument)
        }) {
          index += 1
        }
        continue
      }
      if node.children.isEmpty { break }
      if let next = node.named(argument) {
        node = next
        continue
      }
      // Options every command takes (`--home`, `--json`) say nothing about which one was meant.
      let given = options(in: arguments[...]).filter { option in
        !node.options.contains(option) && !node.leaves.allSatisfy { $0.options.contains(option) }
      }
      let candidates = node.children.filter { $0.takes(given) }
      let suggestion = suggest(argument, among: candidates)
      let takers =
        suggestion == nil && !given.isEmpty ? node.leaves.filter { $0.takes(given) }.map(\.path) : []
      if suggestion == nil && takers.isEmpty { return nil }
      return .command(typed: argument, group: node.path, suggestion: suggestion, takers: takers, given: given)
    }
    let given = options(in: arguments[...])
    let unknown = given.filter { !node.options.contains($0) }
    guard !unknown.isEmpty else { return nil }
    let siblings = node.children.isEmpty ? (parent(of: node, in: root)?.children ?? []) : node.children
    let takers = siblings.flatMap(\.leaves).filter { $0.path != node.path && $0.takes(given) }.map(\.path)
    guard !takers.isEmpty else { return nil }
    return .options(command: node.path, unknown: unknown, takers: takers, needsCommand: !node.children.isEmpty)
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

  /// The path of the command `typed` most likely means: a synonym of its verb, else the
  /// nearest name when it is near enough to be a slip.
  static func suggest(_ typed: String, among candidates: [CommandTree]) -> String? {
    let word = typed.lowercased()
    for (verb, words) in synonyms where words.contains(word) || verb == word {
      if let match = candidates.first(where: { $0.name == verb || $0.aliases.contains(verb) }) { return match.path }
    }
    // A verb people use is not a slip for another one (`export` is no misspelt `import`).
    if synonyms.contains(where: { $0.verb == word || $0.words.contains(word) }) { return nil }
    var best: (path: String, distance: Int)?
    for candidate in candidates {
      for name in [candidate.name] + candidate.aliases {
        let d = distance(word, name)
        let path = name == candidate.name ? candidate.path : candidate.path.dropLastWord + " " + name
        if d < best?.distance ?? .max { best = (path, d) }
      }
    }
    guard let best, best.distance <= max(1, min(3, typed.count / 3 + 1)) else { return nil }
    return best.path
  }

  /// Levenshtein distance, with a swap of two neighbours counted as one edit (`statsu`).
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let substitute = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        var best = min(d[i - 1][j] + 1, d[i][j - 1] + 1)
        best = min(best, substitute)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, d[i - 2][j - 2] + 1) }
        d[i][j] = best
      }
    }
    return d[a.count][b.count]
  }

  /// argument-parser's message for `error` with its first line saying what the whole line
  /// shows, or nil when argument-parser's own words are the best there is.
  static func message(for error: Error, root: ParsableCommand.Type, arguments: [String]) -> String? {
    guard let tree = CommandTree(root), let finding = finding(in: tree, arguments) else { return nil }
    var lines = root.fullMessage(for: error).components(separatedBy: "\n")
    guard !lines.isEmpty else { return nil }
    lines[0] = "Error: " + text(finding)
    return lines.joined(separator: "\n")
  }

  static func text(_ finding: Finding) -> String {
    switch finding {
    case .command(let typed, let group, let suggestion?, _, _):
      return "Unknown command '\(typed)' for '\(group)'. Did you mean '\(suggestion)'?"
    case .command(let typed, let group, nil, let takers, let given):
      return "Unknown command '\(typed)' for '\(group)'. \(list(given)) \(given.count == 1 ? "is" : "are") taken by "
        + "\(names(takers))."
    case .options(let command, let unknown, let takers, let needsCommand):
      let subject = "\(list(unknown)) \(unknown.count == 1 ? "is" : "are")"
      if needsCommand {
        return "'\(command)' needs a command: \(subject) taken by \(names(takers))."
      }
      return "Unknown option\(unknown.count == 1 ? "" : "s") \(list(unknown)) for '\(command)'; "
        + "\(unknown.count == 1 ? "it is" : "they are") taken by \(names(takers))."
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

extension String {
  /// `vital donor add` without `add`.
  fileprivate var dropLastWord: String { split(separator: " ").dropLast().joined(separator: " ") }
}
