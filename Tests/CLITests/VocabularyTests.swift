import Foundation
import Testing

/// One grammar of verbs across kinds, and help that reads the whole line: each guess a new user
/// made in a simulated week either works or names a command that takes what was typed.
@Suite struct VocabularyTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-21T08:00:00Z"
    try ExportImportTests.register(vital, "words@example.org")
  }

  func ok(_ arguments: [String]) throws -> Run {
    let run = try vital.run(arguments)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    return run
  }

  /// `vital donor add --at … --place x` said "Unknown option '--at'", `vital cycle add` "Did you
  /// mean 'day'?", `vital medication list` "2 unexpected arguments"; `vital period log` the same.
  @Test func theVerbsPeopleGuessWork() throws {
    try _ = ok(["donor", "add", "--at", "2026-10-01T10:00", "--place", "DRK Mitte"])
    try _ = ok(["donor", "record", "--at", "2026-06-01T10:00", "--place", "DRK Mitte"])
    let donations = try #require(try ok(["donor", "list", "--json"]).json as? [[String: Any]])
    #expect(donations.count == 2)
    try _ = ok(["cycle", "add", "--start", "2026-11-02", "--end", "2026-11-06"])
    try _ = ok(["period", "log", "--start", "2026-10-05", "--end", "2026-10-09"])
    #expect((try ok(["periods", "ls", "--json"]).json as? [Any])?.count == 2)
    try _ = ok(["medication", "add", "Ramipril", "--at", "08:00"])
    for group in ["med", "medication", "medications", "meds"] {
      #expect((try ok([group, "list", "--json"]).json as? [Any])?.count == 1, "vital \(group) list")
    }
    try _ = ok(["profile", "edit", "--sex", "female"])
    try _ = ok(["goal", "add", "--type", "steps", "--target", "8000"])
    #expect(try ok(["reminders", "export"]).stdout.hasPrefix("BEGIN:VCALENDAR"))
    // A time ahead is an appointment: `add` says which command books it.
    let ahead = try vital.run(["donor", "add", "--at", "2026-12-01T10:00", "--place", "DRK Mitte"])
    expectCleanError(ahead, mentioning: "vital donor book")
  }

  /// Booking while an appointment exists said "cancel it first", and nothing pointed to
  /// `donor edit ID --at`.
  @Test func anAppointmentIsRescheduledAndBookNamesTheCommand() throws {
    try vital.becomeADonorWhoMayBook()
    try _ = ok(["donor", "book", "--at", "2026-12-01T09:30", "--place", "DRK Mitte"])
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2026-12-02T09:30", "--place", "DRK Mitte"]),
      mentioning: "vital donor reschedule")
    let moved = try #require(try ok(["donor", "reschedule", "--at", "2026-12-03T16:00", "--json"]).object)
    #expect(moved["scheduled_at"] as? String == "2026-12-03T16:00:00+01:00")
    #expect(moved["place"] as? String == "DRK Mitte")
    expectCleanError(try vital.run(["donor", "reschedule", "--at", "2026-11-20T10:00"]), mentioning: "past")
    let status = try #require(try ok(["donor", "status", "--json"]).object)
    #expect((status["appointment"] as? [String: Any])?["scheduled_at"] as? String == "2026-12-03T16:00:00+01:00")
  }

  /// The first line of a usage error, and every command it names.
  static func named(_ line: Substring) -> [String] {
    line.matches(of: /'(vital [a-z -]+)'/).map { String($0.1) }
  }

  /// Each misspelling and wrong verb of the simulated week.
  @Test func wrongGuessesGetHelpThatFitsTheLine() throws {
    for (args, expected) in [
      (["donor", "create", "--at", "2026-10-01T10:00", "--place", "x"], "Did you mean 'vital donor add'?"),
      (["cycle", "make", "--start", "2026-11-01"], "Did you mean 'vital cycle add'?"),
      (["donor", "move", "--at", "2026-12-01T10:00"], "Did you mean 'vital donor reschedule'?"),
      (["donr"], "Did you mean 'vital donor'?"),
      (["health", "trnd", "--type", "steps"], "Did you mean 'vital health trend'?"),
      (["donor", "status", "--at", "x", "--place", "y"], "taken by 'vital donor add'"),
      (["goals", "progress", "--target", "5"], "taken by 'vital goals add' and 'vital goals edit'"),
      (["donor", "--at", "x", "--place", "y"], "'vital donor' needs a command"),
    ] {
      let run = try vital.run(args)
      #expect(run.status == 64, "\(args)")
      let first = try #require(run.stderrLines.first)
      #expect(first.contains(expected), "\(args): \(first)")
    }
    // What a second new user typed: options people write for others, a verb's start or stem,
    // a word for another verb, a name with an option it does not take.
    for (args, expected) in [
      (
        ["meds", "add", "Foo", "--time", "08:00"], "Unknown option '--time' for 'vital meds add'. Did you mean '--at'?"
      ),
      (["meds", "take", "Metformin", "--place", "x"], "see 'vital meds take --help'"),
      (["donor", "schedule", "--at", "2026-12-01T10:00", "--place", "X"], "Did you mean 'vital donor book'?"),
      (["donor", "elig"], "Did you mean 'vital donor eligibility'?"),
      (["donor", "eligable"], "Did you mean 'vital donor eligibility'?"),
      (["meds", "statistics"], "Did you mean 'vital meds stats'?"),
      (["meds", "log", "Metformin"], "Did you mean 'vital meds take'?"),
      (["cycle", "start", "2026-11-01"], "Did you mean 'vital cycle add'?"),
      (
        ["goals", "ad", "--type", "steps", "--value", "8000"],
        "Did you mean 'vital goals add'? It does not take '--value'"
      ),
    ] {
      let run = try vital.run(args)
      #expect(run.status == 64, "\(args)")
      let first = try #require(run.stderrLines.first)
      #expect(first.contains(expected), "\(args): \(first)")
      #expect(!first.contains("'--home'"), "\(args): never the data folder for a guess")
    }
    // Nothing near and no option to go by: argument-parser's own words.
    #expect(try vital.run(["xyzzy"]).stderrLines.first == "Error: Unexpected argument 'xyzzy'")
    // `export` is not a slip for `import`.
    #expect(try vital.run(["area", "export"]).stderr.contains("import") == false)
  }

  /// For every command that takes options, the same options after a sibling verb that does not
  /// take them: the error names only commands that take them all, and at least one.
  @Test func aWrongSiblingVerbNamesOnlyCommandsThatTakeTheOptions() throws {
    let dump = try #require(try vital.run(["--experimental-dump-help"], home: .unset).object)
    let root = try #require(Command(dump["command"] as? [String: Any] ?? [:], path: "vital"))
    let leaves = root.groups.flatMap { group in group.children.filter(\.children.isEmpty).map { (group, $0) } }
    var checked = 0
    for (group, command) in leaves {
      let given = command.required.isEmpty ? Array(command.options.prefix(1)) : command.required
      guard !given.isEmpty else { continue }
      let wrong = group.children.filter { $0.children.isEmpty && $0.name != command.name && !$0.takes(given) }
      for sibling in wrong.prefix(2) {
        let line =
          Array(sibling.path.split(separator: " ").dropFirst().map(String.init))
          + given.flatMap { command.valued.contains($0) ? [$0, "1"] : [$0] }
        let run = try vital.run(line)
        #expect(run.status == 64, "\(line)")
        let first = try #require(run.stderrLines.first, "\(line)")
        let named = Self.named(first).filter { $0 != sibling.path && $0 != group.path }
        #expect(!named.isEmpty, "\(line): \(first)")
        for path in named {
          let taker = try #require(root.find(path), "\(path) exists")
          #expect(taker.takes(given), "\(line): '\(path)' cannot take \(given): \(first)")
        }
        checked += 1
      }
    }
    #expect(checked > 60, "a generated list, not a handful")
  }
}

/// A command of the dump-help tree, with the options its parser takes.
struct Command {
  let name: String
  let path: String
  let options: [String]
  let valued: Set<String>
  let required: [String]
  let children: [Command]

  init?(_ json: [String: Any], path: String) {
    name = json["commandName"] as? String ?? ""
    self.path = path
    var options: [String] = []
    var valued: Set<String> = []
    var required: [String] = []
    for argument in json["arguments"] as? [[String: Any]] ?? [] {
      let kind = argument["kind"] as? String
      guard kind != "positional", let names = argument["names"] as? [[String: Any]],
        let long = names.first(where: { $0["kind"] as? String == "long" })?["name"] as? String,
        !["home", "json", "help", "version"].contains(long)
      else { continue }
      options.append("--" + long)
      if kind == "option" { valued.insert("--" + long) }
      if kind == "option", argument["isOptional"] as? Bool == false { required.append("--" + long) }
    }
    (self.options, self.valued, self.required) = (options, valued, required)
    children = (json["subcommands"] as? [[String: Any]] ?? []).compactMap {
      let name = $0["commandName"] as? String ?? ""
      return name == "help" ? nil : Command($0, path: "\(path) \(name)")
    }
  }

  /// Every command with subcommands, this one included.
  var groups: [Command] { (children.isEmpty ? [] : [self]) + children.flatMap(\.groups) }

  func takes(_ given: [String]) -> Bool { given.allSatisfy(options.contains) }

  func find(_ path: String) -> Command? {
    if path == self.path { return self }
    return children.lazy.compactMap { $0.find(path) }.first
  }
}
