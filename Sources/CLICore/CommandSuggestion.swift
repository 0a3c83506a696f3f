import ArgumentParser
import Foundation

/// "Did you mean …?" for a misspelt command (`vital donr` → `donor`); argument-parser already
/// suggests options.
enum CommandSuggestion {
  /// The first word of `arguments` that is not a subcommand where the command reached so far
  /// has subcommands, and the name nearest to it when one is close. Option values are not
  /// words: only `--home` takes one before a subcommand.
  static func nearest(in root: ParsableCommand.Type, _ arguments: [String]) -> (typed: String, suggested: String)? {
    var command = root
    var skipNext = false
    for argument in arguments {
      if skipNext {
        skipNext = false
        continue
      }
      if argument.hasPrefix("-") {
        skipNext = argument == "--home"
        continue
      }
      let subcommands = command.configuration.subcommands
      if subcommands.isEmpty { return nil }
      if let next = subcommands.first(where: { named($0, argument) }) {
        command = next
        continue
      }
      var best: (name: String, distance: Int)?
      for sub in subcommands {
        let d = distance(argument.lowercased(), sub._commandName)
        if d < best?.distance ?? .max { best = (sub._commandName, d) }
      }
      guard let best, best.distance <= max(1, min(3, argument.count / 3 + 1)) else { return nil }
      return (argument, best.name)
    }
    return nil
  }

  private static func named(_ command: ParsableCommand.Type, _ word: String) -> Bool {
    command._commandName == word || command.configuration.aliases.contains(word)
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

  /// argument-parser's message for `error` with its first line naming the nearest command, or
  /// nil when no word is a misspelt command.
  static func message(for error: Error, root: ParsableCommand.Type, arguments: [String]) -> String? {
    guard let (typed, suggested) = nearest(in: root, arguments) else { return nil }
    // The misspelt command is the cause even when argument-parser tripped over what followed it.
    var lines = root.fullMessage(for: error).components(separatedBy: "\n")
    guard !lines.isEmpty else { return nil }
    lines[0] = "Error: Unknown command '\(typed)'. Did you mean '\(suggested)'?"
    return lines.joined(separator: "\n")
  }
}
