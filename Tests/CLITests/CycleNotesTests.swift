import Foundation
import Storage
import Testing

@Suite struct CycleNotesTests {
  let vital: VitalHome

  init() throws {
    vital = try Self.home(now: "2026-11-15T09:00:00Z")
  }

  static func home(now: String) throws -> VitalHome {
    let vital = try VitalHome()
    vital.environment["VITAL_NOW"] = now
    let run = try vital.run(
      ["account", "register", "--email", "notes@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
    return vital
  }

  func rows(_ sql: String) throws -> [[DatabaseValue]] {
    let db = try Database(path: vital.home + "/vital.sqlite")
    return try db.query(sql) { row in (0..<row.count).map { row[$0] } }
  }

  @Test func notesSetFieldsAndFlowMakesPeriods() throws {
    var run = try vital.run([
      "cycle", "note", "--date", "2026-11-03", "--flow", "medium", "--pain", "cramps", "--pain", "back ache", "--mood",
      "tired", "--json",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    var note = try #require(run.object)
    #expect(note["pain"] as? [String] == ["cramps", "back ache"])
    #expect(note["period_change"] as? String == "started")
    #expect((note["period"] as? [String: Any])?["end"] as? String == "2026-11-03")

    // The next day joins it, the day before moves its start; spotting changes nothing.
    run = try vital.run(["cycle", "note", "--date", "2026-11-04", "--flow", "light", "--json"])
    #expect(try #require(run.object)["period_change"] as? String == "extended")
    run = try vital.run(["cycle", "note", "--date", "2026-11-02", "--flow", "heavy", "--json"])
    #expect(try #require(run.object)["period_change"] as? String == "extended")
    run = try vital.run(["cycle", "note", "--date", "2026-11-06", "--flow", "spotting", "--json"])
    #expect(try #require(run.object)["period"] is NSNull)
    let periods = try #require(try vital.run(["cycle", "list", "--json"]).json as? [[String: Any]])
    #expect(periods.count == 1)
    #expect(periods.first?["start"] as? String == "2026-11-02")
    #expect(periods.first?["end"] as? String == "2026-11-04")

    // Fields given replace those fields; the others stay. --clear empties one.
    run = try vital.run([
      "cycle", "note", "--date", "2026-11-03", "--temperature", "36.55", "--temperature-time", "06:30", "--mood",
      "calm",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    note = try #require(try vital.run(["cycle", "day", "2026-11-03", "--json"]).object)
    #expect(note["flow"] as? String == "medium")
    #expect(note["temperature"] as? Double == 36.55)
    #expect(note["temperature_time"] as? String == "06:30")
    #expect(note["mood"] as? [String] == ["calm"])
    #expect(note["pain"] as? [String] == ["cramps", "back ache"])
    #expect(note["cycle_day"] as? Int == 2)
    #expect(note["in_period"] as? Bool == true)
    #expect(
      try vital.run(["cycle", "note", "--date", "2026-11-03", "--clear", "pain", "--exclude-temperature"]).status == 0)
    note = try #require(try vital.run(["cycle", "day", "2026-11-03", "--json"]).object)
    #expect(note["pain"] as? [String] == [])
    #expect(note["temperature_excluded"] as? Bool == true)
    #expect(note["temperature"] as? Double == 36.55)

    let notes = try #require(
      try vital.run(["cycle", "notes", "--from", "2026-11-03", "--to", "2026-11-05", "--json"]).json as? [[String: Any]]
    )
    #expect(notes.compactMap { $0["date"] as? String } == ["2026-11-03", "2026-11-04"])
    #expect(try vital.run(["cycle", "notes"]).stdout.contains("2026-11-06  flow spotting"))

    // Each note is one synced record, field by field, under the day as its id.
    let clocks = try rows("SELECT row_id, clocks FROM sync_row WHERE dataset = 'cycle_note' AND row_id = '2026-11-03'")
    #expect(clocks.count == 1)
    if case .text(let text) = clocks.first?[1] {
      for field in ["flow", "temperature", "mood", "pain", "temperature_excluded"] {
        #expect(text.contains("\(field)="))
      }
    }
  }

  @Test func badNotesAreRefusedWithNothingWritten() throws {
    expectCleanError(
      try vital.run(["cycle", "note", "--date", "2026-11-16", "--flow", "light"]), mentioning: "future")
    expectCleanError(try vital.run(["cycle", "note", "--temperature", "98.6"]), mentioning: "°C")
    expectCleanError(try vital.run(["cycle", "note", "--exclude-temperature"]), mentioning: "no temperature")
    expectCleanError(
      try vital.run(["cycle", "note", "--temperature", "36.5", "--temperature-time", "6.30"]), mentioning: "HH:MM")
    expectCleanError(try vital.run(["cycle", "note", "--date", "2026-11-01"]), mentioning: "say what to note")
    let usage = try vital.run(["cycle", "note", "--mucus", "wet"])
    #expect(usage.status == 64 && usage.stderr.contains("wet"))
    #expect(try rows("SELECT * FROM cycle_note").isEmpty)
    #expect(try rows("SELECT * FROM period").isEmpty)
    #expect(try rows("SELECT * FROM sync_outbox WHERE dataset IN ('cycle_note', 'period')").isEmpty)
  }

  /// A chart worked out by hand (docs/nfp.md): six low measurements to 36.50, a shift on
  /// 11-07, egg-white mucus until 11-03 and three lower days after.
  func chart() throws {
    for (start, end) in [
      ("2026-07-01", "2026-07-05"), ("2026-07-29", "2026-08-02"), ("2026-08-27", "2026-08-31"),
      ("2026-09-24", "2026-09-28"), ("2026-10-23", "2026-10-27"),
    ] {
      #expect(try vital.run(["cycle", "log", "--start", start, "--end", end]).status == 0)
    }
    let temperatures = [
      "36.45", "36.40", "36.50", "36.45", "36.35", "36.40", "36.45", "36.50", "36.40", "36.45", "36.50", "36.45",
      "36.70", "36.75", "36.80", "36.75",
    ]
    for (i, t) in temperatures.enumerated() {
      let day = String(format: "2026-%02d-%02d", i < 6 ? 10 : 11, i < 6 ? 26 + i : i - 5)
      #expect(try vital.run(["cycle", "note", "--date", day, "--temperature", t]).status == 0)
    }
    for (day, mucus) in [
      ("2026-11-01", "creamy"), ("2026-11-02", "eggwhite"), ("2026-11-03", "eggwhite"), ("2026-11-04", "sticky"),
      ("2026-11-05", "dry"), ("2026-11-06", "dry"),
    ] {
      #expect(try vital.run(["cycle", "note", "--date", day, "--mucus", mucus]).status == 0)
    }
  }

  @Test func predictShowsTheSymptoThermalSignsAndTheCalendarMarksThem() throws {
    try chart()
    let predict = try #require(try vital.run(["cycle", "predict", "--json"]).object)
    let current = try #require(predict["current_cycle"] as? [String: Any])
    #expect(current["start"] as? String == "2026-10-23")
    #expect(current["temperature_shift"] as? String == "2026-11-07")
    #expect(current["cover_line"] as? Double == 36.5)
    #expect(current["mucus_peak"] as? String == "2026-11-03")
    #expect(current["infertile_from"] as? String == "2026-11-10")
    #expect(current["method"] as? String == "sympto-thermal")

    let calendar = try #require(
      try vital.run(["cycle", "calendar", "--month", "2026-11", "--json"]).json as? [[String: Any]])
    let marks = Dictionary(uniqueKeysWithValues: calendar.map { ($0["date"] as! String, $0["marks"] as! [String]) })
    #expect(marks["2026-11-09"]?.contains("infertile") == false)
    #expect(marks["2026-11-10"] == ["infertile"])
    #expect(marks["2026-11-20"] == ["infertile"], "until the day before the predicted period")
    #expect(marks["2026-11-21"] == ["predicted"])
    #expect(try vital.run(["cycle", "calendar", "--month", "2026-11"]).stdout.contains("i infertile (confirmed)"))

    // A fever day left out of the chart: the same answer; one measurement fewer in the shift
    // (11-08 excluded) and it is confirmed a day later.
    #expect(try vital.run(["cycle", "note", "--date", "2026-11-08", "--exclude-temperature"]).status == 0)
    let later = try #require(
      try vital.run(["cycle", "predict", "--json"]).object?["current_cycle"] as? [String: Any])
    #expect(later["infertile_from"] as? String == "2026-11-11")
    for command in [["cycle", "--help"], ["cycle", "predict", "--help"], ["cycle", "note", "--help"]] {
      #expect(try vital.run(command).stdout.contains("not contraception advice"), "\(command)")
    }
  }

  @Test func pausesAndExclusions() throws {
    try chart()
    var run = try vital.run([
      "cycle", "pause", "--from", "2026-08-10", "--to", "2026-08-20", "--reason", "contraception",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    var predict = try #require(try vital.run(["cycle", "predict", "--json"]).object)
    let leftOut = try #require(predict["left_out"] as? [[String: Any]])
    #expect(leftOut.compactMap { $0["start"] as? String } == ["2026-07-29"])
    #expect(leftOut.first?["reason"] as? String == "paused")
    #expect(predict["based_on_cycles"] as? Int == 3)

    #expect(try vital.run(["cycle", "exclude", "--start", "2026-09-24"]).status == 0)
    predict = try #require(try vital.run(["cycle", "predict", "--json"]).object)
    #expect(
      (predict["left_out"] as? [[String: Any]])?.compactMap { $0["reason"] as? String } == ["paused", "excluded"])
    #expect(predict["based_on_cycles"] as? Int == 0, "two cycles left: the defaults, with low confidence")
    #expect(try vital.run(["cycle", "include", "--start", "2026-09-24"]).status == 0)
    #expect(try vital.run(["cycle", "predict", "--json"]).object?["based_on_cycles"] as? Int == 3)
    expectCleanError(try vital.run(["cycle", "exclude", "--start", "2026-09-25"]), mentioning: "no period")

    // A pause under way: no predictions, and no cycle reminders.
    #expect(try vital.run(["reminders", "enable", "cycle"]).status == 0)
    #expect(try vital.run(["reminders", "list", "--json"]).stdout.contains("\"cycle\""))
    run = try vital.run(["cycle", "pause", "--from", "2026-11-12", "--reason", "pregnancy"])
    #expect(run.status == 0, "\(run.stderr)")
    predict = try #require(try vital.run(["cycle", "predict", "--json"]).object)
    #expect((predict["predictions"] as? [Any])?.isEmpty == true)
    #expect((predict["paused"] as? [String: Any])?["reason"] as? String == "pregnancy")
    #expect(try vital.run(["cycle", "predict"]).stdout.contains("Paused (pregnancy)"))
    #expect(!(try vital.run(["reminders", "list", "--json"]).stdout.contains("\"cycle\"")))
    expectCleanError(
      try vital.run(["cycle", "pause", "--from", "2026-11-14", "--reason", "other"]), mentioning: "overlaps")
    let pauses = try #require(try vital.run(["cycle", "pauses", "--json"]).json as? [[String: Any]])
    #expect(pauses.count == 2)
    #expect(try vital.run(["cycle", "pause", "--from", "2026-11-12", "--delete"]).status == 0)
    #expect((try vital.run(["cycle", "predict", "--json"]).object?["predictions"] as? [Any])?.count == 3)
  }

  /// Each backtest row is what `predict` says in a home holding only the periods before it, on
  /// the row's day.
  @Test func backtestRowsMatchPredictOnTruncatedHomes() throws {
    let periods = [
      ("2026-03-02", "2026-03-06"), ("2026-03-29", "2026-04-02"), ("2026-04-30", "2026-05-04"),
      ("2026-05-26", "2026-05-30"), ("2026-06-28", "2026-07-02"), ("2026-07-27", "2026-07-31"),
      ("2026-08-26", "2026-08-29"),
    ]
    for (start, end) in periods {
      #expect(try vital.run(["cycle", "log", "--start", start, "--end", end]).status == 0)
    }
    let backtest = try #require(try vital.run(["cycle", "backtest", "--json"]).object)
    let rows = try #require(backtest["cycles"] as? [[String: Any]])
    #expect(rows.count == periods.count - 3)
    var errors: [Int] = []
    var inRange = 0
    for (k, row) in zip(3..., rows) {
      let asOf = try #require(row["as_of"] as? String)
      let truncated = try Self.home(now: asOf + "T09:00:00Z")
      for (start, end) in periods[..<k] {
        #expect(try truncated.run(["cycle", "log", "--start", start, "--end", end]).status == 0)
      }
      let predict = try #require(try truncated.run(["cycle", "predict", "--count", "1", "--json"]).object)
      let next = try #require((predict["predictions"] as? [[String: Any]])?.first)
      #expect(row["start"] as? String == periods[k].0)
      #expect(row["predicted"] as? String == next["start"] as? String)
      #expect(row["range"] as? [String] == next["start_range"] as? [String])
      errors.append(try #require(row["error_days"] as? Int))
      if row["in_range"] as? Bool == true { inRange += 1 }
    }
    let overall = try #require(backtest["overall"] as? [String: Any])
    #expect(overall["cycles"] as? Int == rows.count)
    let mae = Double(errors.map(abs).reduce(0, +)) / Double(errors.count)
    #expect(overall["mean_absolute_error"] as? Double == (mae * 100).rounded() / 100)
    #expect(overall["in_range_share"] as? Double == (Double(inRange) / Double(rows.count) * 100).rounded() / 100)
    // By hand: the defaults (28) from 04-30; then means of 27, 32, 26 (28); of 27, 32, 26, 33
    // (29.5, so 30); of 27, 32, 26, 33, 29 (29.4, so 29).
    #expect(errors == [-2, 5, -1, 1])
  }
}
