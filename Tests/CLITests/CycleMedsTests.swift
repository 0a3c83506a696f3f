import Foundation
import Storage
import Testing

@Suite struct CycleMedsTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2018-08-02T08:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "cycle@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  @Test func cycleLogPredictAndCalendar() throws {
    for (start, end) in [("2018-06-20", "2018-06-24"), ("2018-07-05", "2018-07-09"), ("2018-07-18", "2018-07-22")] {
      #expect(try vital.run(["cycle", "log", "--start", start, "--end", end]).status == 0)
    }
    #expect(try vital.run(["cycle", "log", "--start", "2018-08-01"]).status == 0)
    expectCleanError(try vital.run(["cycle", "log", "--start", "2018-07-20"]), mentioning: "overlaps")
    expectCleanError(
      try vital.run(["cycle", "log", "--start", "2018-07-30", "--end", "2018-07-29"]), mentioning: "before")
    let badDay = try vital.run(["cycle", "log", "--start", "2018-13-01"])
    #expect(badDay.status == 64 && badDay.stderr.contains("2018-13-01"), "a usage error")

    let list = try #require(try vital.run(["cycle", "list", "--json"]).json as? [[String: Any]])
    #expect(list.count == 4)
    #expect(list.last?["end"] is NSNull)

    let predict = try #require(try vital.run(["cycle", "predict", "--json"]).object)
    #expect(predict["based_on_cycles"] as? Int == 3)
    #expect(predict["confidence"] as? String == "high")
    #expect((predict["note"] as? String)?.contains("not contraception") == true)
    let next = try #require(predict["predictions"] as? [[String: Any]])
    #expect(next.compactMap { $0["start"] as? String } == ["2018-08-15", "2018-08-29", "2018-09-12"])
    #expect(next[0]["start_range"] as? [String] == ["2018-08-14", "2018-08-16"])
    #expect(try vital.run(["cycle", "predict"]).stdout.contains("not contraception"))

    let calendar = try #require(
      try vital.run(["cycle", "calendar", "--month", "2018-08", "--json"]).json as? [[String: Any]])
    let marks = Dictionary(uniqueKeysWithValues: calendar.map { ($0["date"] as! String, $0["marks"] as! [String]) })
    #expect(marks.count == 31)
    // A 14-day cycle: ovulation falls on the start of the period before.
    #expect(marks["2018-08-01"] == ["period", "fertile", "ovulation"])
    #expect(marks["2018-08-03"] == [])
    #expect(marks["2018-08-16"] == ["predicted", "fertile"])
    #expect(marks["2018-08-29"] == ["predicted", "fertile", "ovulation"])
    let grid = try vital.run(["cycle", "calendar", "--month", "2018-08"]).stdout
    #expect(grid.contains("August 2018"))
    #expect(grid.contains("  1P  2P"))
    #expect(!grid.contains("\u{1B}["), "no colour off a terminal")
    let badMonth = try vital.run(["cycle", "calendar", "--month", "August"])
    #expect(badMonth.status == 64 && badMonth.stderr.contains("YYYY-MM"))

    #expect(try vital.run(["cycle", "remove", "--start", "2018-08-01", "--yes"]).status == 0)
    expectCleanError(try vital.run(["cycle", "remove", "--start", "2018-08-01", "--yes"]), mentioning: "no period")
  }

  @Test func medicationsFromAddToHistory() throws {
    vital.environment["VITAL_NOW"] = "2018-08-02T05:00:00Z"
    let added = try vital.run(
      [
        "meds", "add", "Levothyroxine", "--at", "07:30", "--at", "19:30", "--dose", "50 µg, fasting", "--stock", "7",
        "--json",
      ])
    #expect(added.object?["times"] as? [String] == ["07:30", "19:30"])
    #expect(added.object?["stock"] as? Int == 7)
    expectCleanError(try vital.run(["meds", "add", "LEVOTHYROXINE", "--at", "08:00"]), mentioning: "exists")
    expectCleanError(try vital.run(["meds", "add", "X", "--at", "7:3"]), mentioning: "HH:MM")

    vital.environment["VITAL_NOW"] = "2018-08-02T05:40:00Z"
    let taken = try vital.run(["meds", "take", "levothyroxine", "--json"])
    #expect(taken.status == 0, "\(taken.stderr)")
    #expect(taken.object?["stock"] as? Int == 6)
    #expect(taken.object?["refill_due"] as? Bool == true, "6 is three days of two doses")
    #expect(taken.stderr.contains("warning: stock is down to 6"))
    expectCleanError(try vital.run(["meds", "take", "levothyroxine"]), mentioning: "already recorded as taken")

    vital.environment["VITAL_NOW"] = "2018-08-03T18:00:00Z"
    #expect(try vital.run(["meds", "skip", "levothyroxine", "--at", "2018-08-03 07:45"]).status == 0)
    let stats = try #require(try vital.run(["meds", "stats", "--days", "2", "--json"]).json as? [[String: Any]])
    #expect(stats.first?["scheduled"] as? Int == 4)
    #expect(stats.first?["taken"] as? Int == 1)
    #expect(stats.first?["skipped"] as? Int == 1)
    #expect(stats.first?["missed"] as? Int == 1, "19:30 on the 2nd; the 07:30 of the 3rd was skipped")
    #expect(stats.first?["open"] as? Int == 1, "19:30 on the 3rd is due and not yet missed")
    #expect(stats.first?["adherence"] as? Double == 33.3, "1 of 3 decided, a percent like goals' percent")

    let csv = try vital.run(["meds", "history"]).stdout
    #expect(
      csv == "scheduled_at,medication,dose,status,at\r\n"
        + "2018-08-02T07:30:00+02:00,Levothyroxine,\"50 µg, fasting\",taken,2018-08-02T07:40:00+02:00\r\n"
        + "2018-08-02T19:30:00+02:00,Levothyroxine,\"50 µg, fasting\",missed,\r\n"
        + "2018-08-03T07:30:00+02:00,Levothyroxine,\"50 µg, fasting\",skipped,2018-08-03T07:45:00+02:00\r\n")

    #expect(try vital.run(["meds", "remove", "levothyroxine", "--yes"]).status == 0)
    #expect((try vital.run(["meds", "list", "--json"]).json as? [Any])?.isEmpty == true)
    expectCleanError(try vital.run(["meds", "take", "levothyroxine"]), mentioning: "no medication")
  }
}
