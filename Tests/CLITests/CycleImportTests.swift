import Foundation
import Storage
import Testing

/// drip's CSV and Clue's JSON, written here from the formats as their sources define them (drip's
/// `db/schemas` and CSV export; Clue's export of `{"date","type","value"}` measurements).
@Suite struct CycleImportTests {
  let vital: VitalHome

  init() throws {
    vital = try CycleNotesTests.home(now: "2026-11-15T09:00:00Z")
  }

  static let dripColumns = """
    date,temperature.value,temperature.exclude,temperature.time,temperature.note,isCycleStart,bleeding.value,\
    bleeding.exclude,mucus.feeling,mucus.texture,mucus.value,mucus.exclude,cervix.opening,cervix.firmness,\
    cervix.position,cervix.exclude,note.value,desire.value,sex.solo,sex.partner,sex.condom,sex.pill,sex.iud,\
    sex.patch,sex.ring,sex.implant,sex.diaphragm,sex.none,sex.other,sex.note,pain.cramps,pain.ovulationPain,\
    pain.headache,pain.backache,pain.nausea,pain.tenderBreasts,pain.migraine,pain.other,pain.note,mood.happy,\
    mood.sad,mood.stressed,mood.balanced,mood.fine,mood.anxious,mood.energetic,mood.fatigue,mood.angry,\
    mood.other,mood.note
    """.split(separator: ",").map(String.init)

  /// One drip row: the named columns set, the rest empty, as drip writes days.
  static func dripRow(_ values: [String: String]) -> String {
    dripColumns.map { values[$0] ?? "" }.joined(separator: ",")
  }

  static var dripFile: String {
    ([dripColumns.joined(separator: ",")]
      + [
        // drip exports newest first.
        dripRow([
          "date": "2026-11-04", "bleeding.value": "0", "bleeding.exclude": "false", "mucus.feeling": "2",
          "mucus.texture": "1", "mucus.exclude": "false", "mood.happy": "true", "mood.other": "true",
          "mood.note": "calm", "desire.value": "2",
        ]),
        dripRow([
          "date": "2026-11-03", "bleeding.value": "2", "bleeding.exclude": "false", "pain.cramps": "true",
          "pain.tenderBreasts": "true", "sex.partner": "true", "sex.condom": "true",
          "cervix.opening": "0", "cervix.firmness": "1", "cervix.exclude": "false",
        ]),
        dripRow([
          "date": "2026-11-02", "isCycleStart": "true", "bleeding.value": "3", "bleeding.exclude": "false",
          "temperature.value": "36.45", "temperature.exclude": "false", "temperature.time": "06:15",
          "note.value": "\"first day, \"\"heavy\"\"\"",
        ]),
        dripRow([
          "date": "2026-10-20", "bleeding.value": "1", "bleeding.exclude": "true",
          "temperature.value": "37.6", "temperature.exclude": "true", "temperature.note": "fever",
        ]),
      ]).joined(separator: "\n") + "\n"
  }

  func write(_ name: String, _ text: String) throws -> String {
    let path = vital.root + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func rows(_ sql: String) throws -> Int {
    try Database(path: vital.home + "/vital.sqlite").scalar(Int.self, sql) ?? 0
  }

  @Test func aDripExportImportsOnceAndMakesItsPeriods() throws {
    let file = try write("drip.csv", Self.dripFile)
    let first = try vital.run(["cycle", "import", file, "--json"])
    #expect(first.status == 0, "\(first.stderr)")
    let summary = try #require(first.object)
    #expect(summary["format"] as? String == "drip")
    #expect(summary["days"] as? Int == 4)
    #expect(summary["added"] as? Int == 4)
    #expect(summary["periods_added"] as? Int == 1, "11-02 and 11-03; spotting and excluded flow make none")

    let notes = try #require(try vital.run(["cycle", "notes", "--json"]).json as? [[String: Any]])
    let byDay = Dictionary(uniqueKeysWithValues: notes.map { ($0["date"] as! String, $0) })
    #expect(byDay["2026-11-02"]?["temperature"] as? Double == 36.45)
    #expect(byDay["2026-11-02"]?["temperature_time"] as? String == "06:15")
    #expect(byDay["2026-11-02"]?["text"] as? String == "first day, \"heavy\"")
    #expect(byDay["2026-11-03"]?["pain"] as? [String] == ["cramps", "tender breasts"])
    #expect(byDay["2026-11-03"]?["sex"] as? String == "protected")
    #expect(byDay["2026-11-04"]?["flow"] as? String == "spotting")
    #expect(byDay["2026-11-04"]?["mucus"] as? String == "creamy", "feeling wet (2), texture creamy (3): 3")
    #expect(byDay["2026-11-04"]?["mood"] as? [String] == ["happy", "calm", "high desire"])
    #expect(byDay["2026-10-20"]?["temperature_excluded"] as? Bool == true)
    #expect(byDay["2026-10-20"]?["text"] as? String == "temperature: fever")
    let periods = try #require(try vital.run(["cycle", "list", "--json"]).json as? [[String: Any]])
    #expect(periods.map { "\($0["start"]!)..\($0["end"]!)" } == ["2026-11-02..2026-11-03"])

    let outbox = try rows("SELECT count(*) FROM sync_outbox")
    let again = try #require(try vital.run(["cycle", "import", file, "--json"]).object)
    #expect(again["added"] as? Int == 0)
    #expect(again["changed"] as? Int == 0)
    #expect(again["unchanged"] as? Int == 4)
    #expect(again["periods_added"] as? Int == 0)
    #expect(try rows("SELECT count(*) FROM sync_outbox") == outbox, "a second import writes nothing")

    // A day noted here keeps the fields the file does not give.
    #expect(
      try vital.run(["cycle", "note", "--date", "2026-11-03", "--text", "felt ok", "--flow", "light"]).status == 0)
    let merged = try #require(try vital.run(["cycle", "import", file, "--json"]).object)
    #expect(merged["changed"] as? Int == 1)
    let day = try #require(try vital.run(["cycle", "day", "2026-11-03", "--json"]).object)
    #expect(day["flow"] as? String == "medium")
    #expect(day["text"] as? String == "felt ok")
  }

  @Test func aClueExportImportsOnce() throws {
    let clue = """
      [
        {"date": "2026-10-05", "type": "period", "value": {"option": "heavy"}},
        {"date": "2026-10-06", "type": "period", "value": {"option": "very_heavy"}},
        {"date": "2026-10-06", "type": "pain", "value": [{"option": "period_cramps"}, {"option": "headache"}]},
        {"date": "2026-10-07", "type": "period", "value": {"option": "light"}},
        {"date": "2026-10-09", "type": "spotting", "value": {"option": "spotting"}},
        {"date": "2026-10-17", "type": "bbt", "value": {"celsius": 36.42, "excluded": false}},
        {"date": "2026-10-17", "type": "discharge", "value": [{"option": "egg_white"}]},
        {"date": "2026-10-18", "type": "feelings", "value": [{"option": "happy"}, {"option": "sensitive"}]},
        {"date": "2026-10-18", "type": "sex_life", "value": [{"option": "unprotected_sex"}, {"option": "high_sex_drive"}]},
        {"date": "2026-10-18", "type": "craving", "value": [{"option": "sweet"}]},
        {"date": "2026-11-02", "type": "period", "value": {"option": "medium"}}
      ]
      """
    let file = try write("ClueDataExport.json", clue)
    let first = try #require(try vital.run(["cycle", "import", file, "--json"]).object)
    #expect(first["format"] as? String == "clue")
    #expect(first["days"] as? Int == 7)
    #expect(first["periods_added"] as? Int == 2)
    let periods = try #require(try vital.run(["cycle", "list", "--json"]).json as? [[String: Any]])
    #expect(periods.map { "\($0["start"]!)..\($0["end"]!)" } == ["2026-10-05..2026-10-07", "2026-11-02..2026-11-02"])
    let day = try #require(try vital.run(["cycle", "day", "2026-10-18", "--json"]).object)
    #expect(day["mood"] as? [String] == ["happy", "sensitive"])
    #expect(day["sex"] as? String == "unprotected")
    #expect(day["text"] as? String == "sex: high sex drive\ncraving: sweet")
    #expect(try vital.run(["cycle", "day", "2026-10-06", "--json"]).object?["flow"] as? String == "heavy")
    #expect(try vital.run(["cycle", "day", "2026-10-17", "--json"]).object?["mucus"] as? String == "eggwhite")

    let again = try #require(try vital.run(["cycle", "import", file, "--json"]).object)
    #expect(again["added"] as? Int == 0 && again["changed"] as? Int == 0 && again["unchanged"] as? Int == 7)
    #expect(again["periods_unchanged"] as? Int == 2)
  }

  @Test func aMalformedLineOrElementIsNamedAndNothingIsWritten() throws {
    var lines = Self.dripFile.split(separator: "\n").map(String.init)
    lines[3] = lines[3].replacingOccurrences(of: "36.45", with: "hot")
    let badDrip = try write("bad.csv", lines.joined(separator: "\n"))
    expectCleanError(try vital.run(["cycle", "import", badDrip]), mentioning: "line 4", "temperature.value")

    let unknown = try write("unknown.csv", "date,temperature.value,colour\n2026-11-01,36.5,red\n")
    expectCleanError(try vital.run(["cycle", "import", unknown]), mentioning: "line 1", "colour")

    let future = try write(
      "future.csv",
      Self.dripColumns.joined(separator: ",") + "\n" + Self.dripRow(["date": "2026-11-20", "bleeding.value": "1"])
        + "\n")
    expectCleanError(try vital.run(["cycle", "import", future]), mentioning: "line 2", "future")

    let badClue = try write(
      "bad.json",
      #"[{"date":"2026-10-05","type":"period","value":{"option":"heavy"}},{"date":"2026-10-06","type":"bbt","value":{"celsius":98.6}}]"#
    )
    expectCleanError(try vital.run(["cycle", "import", badClue]), mentioning: "element 2", "celsius")

    let neither = try write("other.txt", "hello\n")
    expectCleanError(try vital.run(["cycle", "import", neither]), mentioning: "drip", "Clue")

    // Clue's file streams: what is wrong is found where it is, and nothing grows without bound.
    let cut = try write("cut.json", #"[{"date":"2026-10-05","type":"period","value":{"option":"heavy"}},{"date""#)
    expectCleanError(try vital.run(["cycle", "import", cut]), mentioning: "not valid JSON", "at byte")
    let huge = try write(
      "huge.json", #"[{"date":"2026-10-05","type":"x","value":""# + String(repeating: "a", count: 1 << 20) + #""}]"#)
    expectCleanError(try vital.run(["cycle", "import", huge]), mentioning: "element 1", "over 1 MiB")
    let element = #"{"date":"2026-10-05","type":"craving","value":[{"option":"sweet"}]},"#
    let crowded = try write("crowded.json", "[" + String(repeating: element, count: 20_000) + element.dropLast() + "]")
    expectCleanError(try vital.run(["cycle", "import", crowded]), mentioning: "2026-10-05 holds more than 1 MiB")
    let ancient = try write("ancient.json", #"[{"date":"0001-10-05","type":"period","value":{"option":"heavy"}}]"#)
    expectCleanError(try vital.run(["cycle", "import", ancient]), mentioning: "element 1", "before 1900")

    for table in ["cycle_note", "period", "sync_outbox"] {
      #expect(try rows("SELECT count(*) FROM \(table)") == 0, "\(table)")
    }
  }

  @Test func theMorningTemperatureReminder() throws {
    var run = try vital.run(["reminders", "list", "--from", "2026-11-16", "--to", "2026-11-19", "--json"])
    #expect(!run.stdout.contains("temperature"), "off by default")
    run = try vital.run(["reminders", "enable", "temperature", "--at", "06:15", "--json"])
    #expect(run.object?["temperature_at"] as? String == "06:15")
    #expect(try vital.run(["cycle", "note", "--date", "2026-11-15", "--temperature", "36.4"]).status == 0)
    #expect(try vital.run(["cycle", "pause", "--from", "2026-11-18", "--reason", "contraception"]).status == 0)
    let list = try #require(
      try vital.run(["reminders", "list", "--from", "2026-11-15", "--to", "2026-11-20", "--json"]).json
        as? [[String: Any]])
    let temperature = list.filter { $0["kind"] as? String == "temperature" }
    // Not on the 15th (noted), not from the 18th (paused); 06:15 local, winter time in Berlin.
    #expect(
      temperature.compactMap { $0["at"] as? String } == ["2026-11-16T06:15:00+01:00", "2026-11-17T06:15:00+01:00"])
    expectCleanError(try vital.run(["reminders", "enable", "medication", "--at", "07:00"]), mentioning: "only")
    expectCleanError(try vital.run(["reminders", "enable", "temperature", "--at", "6am"]), mentioning: "HH:MM")

    // In the calendar file, read by a real iCalendar parser.
    let file = vital.root + "/reminders.ics"
    #expect(try vital.run(["reminders", "ics", "--to", "2026-11-19", "--out", file]).status == 0)
    let events = try #require(
      try JSONSerialization.jsonObject(with: runChecker("check-ics", [file])) as? [[String: Any]])
    let mornings = events.filter { ($0["uid"] as? String)?.hasPrefix("temperature-") == true }
    #expect(
      mornings.compactMap { $0["start"] as? String } == ["2026-11-16T05:15:00+00:00", "2026-11-17T05:15:00+00:00"])
    #expect(mornings.first?["alarms"] as? [String] == ["P0D"])

    // The chosen time travels with an export of the settings.
    let export = try vital.run(["export", "--format", "json"])
    #expect(export.stdout.contains(#""temperature":true,"temperature_at":"06:15""#))
  }
}
