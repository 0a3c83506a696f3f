/// The words people type for the commands and options they mean.
extension CommandSuggestion {
  /// What people type for each verb the commands use, in the order they are tried: `log` is a
  /// take where there is one (a dose), else an add; `move` a reschedule where there is one.
  static let synonyms: [(verb: String, words: [String])] = [
    ("take", ["log", "record", "took", "had"]),
    ("add", ["create", "new", "insert", "log", "record", "enter", "put", "make", "start", "begin"]),
    ("book", ["schedule", "appointment", "reserve", "plan"]),
    ("delete", ["remove", "rm", "del", "drop", "erase"]),
    ("reschedule", ["move", "postpone", "rebook"]),
    ("edit", ["update", "change", "modify", "set", "correct", "fix", "move"]),
    ("show", ["view", "get", "info", "display", "open", "cat", "details", "describe"]),
    ("list", ["ls", "all", "history", "index", "entries"]),
    ("stats", ["statistics", "adherence", "summary"]),
    ("eligibility", ["eligible", "elegible", "allowed"]),
    ("predict", ["prediction", "forecast", "next"]),
    ("export", ["dump", "save", "download", "csv", "backup"]),
    ("import", ["load", "upload"]),
  ]

  /// Options people write for the ones the commands take.
  static let optionSynonyms: [(option: String, words: [String])] = [
    ("--at", ["--time", "--times", "--when", "--on", "--date", "--datetime"]),
    ("--target", ["--goal", "--value", "--amount"]),
    ("--value", ["--amount", "--count", "--val", "--target"]),
    ("--place", ["--location", "--where", "--site", "--centre", "--center"]),
    ("--notes", ["--note", "--comment", "--comments", "--text"]),
    ("--text", ["--note", "--notes", "--comment"]),
    ("--dose", ["--dosage", "--amount", "--strength"]),
    ("--start", ["--from", "--begin", "--first"]),
  ]

  /// The path of the command `typed` most likely means: a synonym of its verb, else the one
  /// name it begins (`elig`) or shares its first four letters with (`eligable`), else the
  /// nearest name when it is near enough to be a slip.
  static func suggest(_ typed: String, among candidates: [CommandTree]) -> String? {
    let word = typed.lowercased()
    for (verb, words) in synonyms where words.contains(word) || verb == word {
      if let match = candidates.first(where: { $0.name == verb || $0.aliases.contains(verb) }) { return match.path }
    }
    let names = candidates.flatMap { c in ([c.name] + c.aliases).map { (path: path(c, $0), name: $0) } }
    let prefix = word.count >= 3 ? names.filter { $0.name.hasPrefix(word) } : []
    if Set(prefix.map(\.path)).count == 1 { return prefix[0].path }
    let stem = word.count >= 5 ? names.filter { $0.name.hasPrefix(word.prefix(4)) } : []
    if Set(stem.map(\.path)).count == 1 { return stem[0].path }
    // A verb people use is not a slip for another one (`export` is no misspelt `import`).
    if synonyms.contains(where: { $0.verb == word || $0.words.contains(word) }) { return nil }
    var best: (path: String, distance: Int)?
    for (path, name) in names {
      let d = distance(word, name)
      if d < best?.distance ?? .max { best = (path, d) }
    }
    guard let best, best.distance <= max(1, min(3, typed.count / 3 + 1)) else { return nil }
    return best.path
  }

  /// `vital donor add` for the command's name, `vital donor record` for its alias.
  private static func path(_ command: CommandTree, _ name: String) -> String {
    name == command.name
      ? command.path : command.path.split(separator: " ").dropLast().joined(separator: " ") + " " + name
  }

  /// The option of `command` that `typed` means: one people write for it (`--time` for `--at`),
  /// or a slip of a letter or two (`--jsn`); argument-parser's own guess reaches further and
  /// offers `--home` for `--time`.
  static func nearestOption(_ typed: String, in command: CommandTree) -> String? {
    let word = typed.lowercased()
    for (option, words) in optionSynonyms where words.contains(word) && command.options.contains(option) {
      return option
    }
    let longs = command.options.filter { $0.hasPrefix("--") }
    let bare = word.drop { $0 == "-" }
    var best: (option: String, distance: Int)?
    for option in longs.sorted() {
      let d = distance(String(bare), String(option.dropFirst(2)))
      if d < best?.distance ?? .max { best = (option, d) }
    }
    guard let best, best.distance <= (bare.count <= 5 ? 1 : 2) else { return nil }
    return best.option
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
}
