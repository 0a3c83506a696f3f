import Foundation
import Testing

/// Traps a new user met in a first hour, each tried as they tried it.
@Suite struct FirstHourTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"  // 14:30 in Berlin
    let run = try vital.run(
      ["account", "register", "--email", "first@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  func at(_ text: String) throws -> String? {
    let run = try vital.run(["health", "add", "--type", "steps", "--value", "1", "--at", text, "--json"])
    return run.status == 0 ? run.object?["at"] as? String : nil
  }

  @Test func datesAndTimesAsPeopleTypeThem() throws {
    #expect(try at("07:30") == "2026-11-23T07:30:00+01:00")
    #expect(try at("yesterday 20:00") == "2026-11-22T20:00:00+01:00")
    #expect(try at("today 9:05") == "2026-11-23T09:05:00+01:00")
    let ago = try vital.run(["health", "add", "--type", "steps", "--value", "1", "--at=-2h", "--json"])
    #expect(ago.object?["at"] as? String == "2026-11-23T12:30:00+01:00", "\(ago.stderr)")
    expectCleanError(
      try vital.run(["health", "add", "--type", "steps", "--value", "1", "--at", "2026-06-10"]),
      mentioning: "no time of day", "2026-06-10T09:30")
    // A window's edge is the one place a bare date means its midnight.
    #expect(try vital.run(["reminders", "list", "--from", "2026-11-23", "--to", "2026-11-24"]).status == 0)
    let booked = try vital.run(["donor", "book", "--at", "+2d", "--place", "DRK"])
    expectCleanError(booked, mentioning: "questionnaire")
  }

  @Test func jsonAlwaysPrintsExactlyOneDocument() throws {
    #expect(try vital.run(["donor", "record", "--at", "2026-06-01T10:00", "--place", "DRK"]).status == 0)
    let export = try vital.run(["donor", "export", "--json"])
    #expect((export.json as? [[String: Any]])?.count == 1, "got: \(export.stdout)")
    let file = vital.root + "/donations.csv"
    let written = try vital.run(["donor", "export", "--json", "--format", "csv", "--out", file])
    #expect(written.object?["rows"] as? Int == 1)
    #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("id,kind,status"))
    #expect(try vital.run(["donor", "export", "--json", "--format", "csv"]).status == 64)
    let ics = try vital.run(["reminders", "ics", "--json"])
    #expect((ics.object?["ics"] as? String)?.hasPrefix("BEGIN:VCALENDAR") == true, "got: \(ics.stdout)")
    let history = try vital.run(["meds", "history", "--json"])
    #expect(history.json is [Any])
  }

  @Test func oldIncidenceFiguresSayHowOldTheyAre() throws {
    let geo = AreaCLITests.fixtures + "/geo/bavaria-districts-rki-2020-10-15.geojson"
    #expect(try vital.run(["area", "import", geo]).status == 0)
    #expect(try vital.run(["area", "stats", geo]).status == 0)
    let run = try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755"])
    #expect(run.stdout.contains("days old"), "\(run.stdout)")
    let json = try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755", "--json"])
    #expect(json.object?["age_days"] as? Int == 2230, "2020-10-15 to 2026-11-23")
    vital.environment["VITAL_NOW"] = "2020-10-20T08:00:00Z"
    #expect(!(try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755"]).stdout.contains("days old")))
  }

  @Test func completionsKnowRemoteAndSyncAndMedicationNames() throws {
    for shell in ["bash", "zsh", "fish"] {
      let script = try vital.run(["--generate-completion-script", shell], home: .unset).stdout
      for word in ["register", "encrypt", "passphrase", "--passphrase-stdin"] {
        #expect(script.contains(word), "\(shell) completes \(word)")
      }
    }
    _ = try vital.run(["meds", "add", "Levothyroxine", "--at", "07:00"])
    _ = try vital.run(["meds", "add", "Vitamin D", "--at", "12:00"])
    // What the shell runs on TAB after `vital meds take L`.
    let asked = try vital.run(
      [
        "---completion", "meds", "take", "--", "positional@0", "3", "1", "vital", "meds", "take", "L", "--home",
        vital.home,
      ],
      home: .unset)
    #expect(asked.stdout.split(separator: "\n") == ["Levothyroxine"], "\(asked.stdout) \(asked.stderr)")
  }

  @Test func aServerOutsideThisMachineAndPrivateNetworksOverHTTPIsWarnedAbout() throws {
    let public_ = try vital.run(["remote", "set", "http://sync.example.org:8080"])
    #expect(public_.status == 0)
    #expect(public_.stderr.hasPrefix("warning:") && public_.stderr.contains("https"), "\(public_.stderr)")
    for quiet in ["http://127.0.0.1:8080", "http://192.168.1.20:8080", "http://[::1]:8080", "https://sync.example.org"]
    {
      let run = try vital.run(["remote", "set", quiet])
      #expect(run.status == 0)
      #expect(run.stderr.isEmpty, "\(quiet): \(run.stderr)")
    }
  }
}

/// A new account on a terminal is asked what the donation rules need; until then eligibility
/// says what is missing instead of "you may donate today".
@Suite struct FirstRunTests {
  @Test func eligibilityNamesWhatIsMissingInsteadOfYes() throws {
    let vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"
    _ = try vital.run(
      ["account", "register", "--email", "script@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    let verdict = try #require(try vital.run(["donor", "eligibility", "--json"]).object)
    #expect(verdict["eligible"] as? Bool == false)
    #expect(verdict["missing"] as? [String] == ["region", "sex", "birth date", "weight"])
    #expect(try vital.run(["donor", "eligibility"]).stdout.contains("vital profile set --region"))
    #expect(try vital.run(["profile", "show", "--json"]).object?["region"] is NSNull, "no silent de")
    _ = try vital.run(["profile", "set", "--region", "de", "--sex", "male", "--birth-date", "1990-01-01"])
    #expect(try vital.run(["donor", "eligibility", "--json"]).object?["missing"] as? [String] == ["weight"])
    _ = try vital.run(["profile", "set", "--weight-kg", "80"])
    #expect(try vital.run(["donor", "eligibility", "--json"]).object?["eligible"] as? Bool == true)
  }

  @Test(.enabled(if: VitalHome.terminalsAvailable, "needs a pseudo-terminal (/dev/pts)"))
  func aNewAccountOnATerminalIsAskedTheFourFacts() throws {
    let vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"
    let password = "lilac harbour 1987 teaspoon"
    let transcript = try vital.runOnTerminal(
      ["account", "register", "--email", "person@example.org"],
      answers: [
        ("New password: ", password), ("Repeat the new password: ", password), ("(de, us, uk): ", "uk"),
        ("(female, male): ", "female"), ("(YYYY-MM-DD): ", "1990-13-01"), ("(YYYY-MM-DD): ", "1990-05-01"),
        ("in kg: ", ""),
      ])
    #expect(transcript.contains("registered"), "\(transcript)")
    let profile = try #require(try vital.run(["profile", "show", "--json"]).object)
    #expect(profile["region"] as? String == "uk")
    #expect(profile["sex"] as? String == "female")
    #expect(profile["birth_date"] as? String == "1990-05-01")
    #expect(profile["weight_kg"] is NSNull, "skipped with Enter")
    #expect(try vital.run(["donor", "eligibility", "--json"]).object?["missing"] as? [String] == ["weight"])
  }
}

/// Plain `vital`, logged in: what is due today, each part only when it has something.
@Suite struct TodayViewTests {
  @Test func dueDosesCycleGoalsAppointmentAndRemindersEachWhenThere() throws {
    let vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-20T06:00:00Z"
    vital.environment["DBUS_SESSION_BUS_ADDRESS"] = ""
    _ = try vital.run(
      ["account", "register", "--email", "today@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    let bare = try vital.run([])
    #expect(!bare.stdout.contains("Doses due") && !bare.stdout.contains("Cycle") && !bare.stdout.contains("Goals"))
    #expect(bare.stdout.contains("not known yet"), "eligibility says what is missing: \(bare.stdout)")

    _ = try vital.run(["meds", "add", "Ramipril", "--at", "08:00", "--at", "20:00"])
    _ = try vital.run(["cycle", "log", "--start", "2026-10-12", "--end", "2026-10-16"])
    _ = try vital.run(["cycle", "log", "--start", "2026-11-10", "--end", "2026-11-14"])
    _ = try vital.run(["goals", "add", "--type", "steps", "--target", "8000"])
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"
    _ = try vital.run(["health", "add", "--type", "steps", "--value", "2000", "--at", "09:00"])
    let text = try vital.run([]).stdout
    #expect(text.contains("vital meds take Ramipril --dose 08:00"), "\(text)")
    #expect(text.contains("overdue"))
    #expect(text.contains("cycle day 14"))
    #expect(text.contains("25%"))
    #expect(text.contains("Take Ramipril"))
    let json = try #require(try vital.run(["--json"]).object)
    let doses = try #require(json["doses"] as? [[String: Any]])
    #expect(doses.count == 1, "20:00 is not due yet")
    #expect((json["cycle"] as? [String: Any])?["day"] as? Int == 14)
    #expect((json["goals"] as? [[String: Any]])?.first?["percent"] as? Double == 25)
    #expect((json["reminders"] as? [Any])?.count == 3)
    // Taken: the dose leaves the view.
    _ = try vital.run(["meds", "take", "Ramipril"])
    #expect((try vital.run(["--json"]).object?["doses"] as? [Any])?.isEmpty == true)
  }
}

/// Every command's --help shows how it is used, with examples.
@Suite struct HelpExamplesTests {
  @Test func everyLeafCommandsHelpHasExamples() throws {
    let vital = try VitalHome()
    var missing: [String] = []
    var leaves = 0
    func crawl(_ path: [String], depth: Int) throws {
      let help = try vital.run(path + ["--help"], home: .unset).stdout
      var subcommands: [String] = []
      var inSection = false
      for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("SUBCOMMANDS:") {
          inSection = true
        } else if inSection, line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  See "),
          let first = line.split(separator: " ").first, first.first?.isLetter == true
        {
          subcommands.append(String(first).trimmingCharacters(in: CharacterSet(charactersIn: ",")))  // `list, ls`
        } else if inSection, !line.isEmpty, !line.hasPrefix(" ") {
          inSection = false
        }
      }
      subcommands.removeAll { $0 == "help" }
      if subcommands.isEmpty || depth > 3 {
        leaves += 1
        let examples = help.components(separatedBy: "Examples:").dropFirst().first ?? ""
        if !examples.contains("vital ") { missing.append(path.joined(separator: " ")) }
        return
      }
      for sub in subcommands { try crawl(path + [sub], depth: depth + 1) }
    }
    try crawl([], depth: 0)
    #expect(leaves > 80, "the crawl reached the commands: \(leaves)")
    #expect(missing.isEmpty, "without examples: \(missing)")
  }
}
