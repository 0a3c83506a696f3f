import Foundation
import Testing

/// Medications as people take them: as needed, tapers, pinned zones, late doses, corrections.
@Suite struct MedsPlanTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["TZ"] = "America/New_York"
    vital.environment["VITAL_NOW"] = "2026-03-01T12:00:00Z"  // 07:00 in New York
    let run = try vital.run(
      ["account", "register", "--email", "meds@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n"
    )
    try #require(run.status == 0, "\(run.stderr)")
  }

  func now(_ utc: String) { vital.environment["VITAL_NOW"] = utc }

  func medication(_ name: String) throws -> [String: Any] {
    let list = try #require(try vital.run(["meds", "list", "--json"]).json as? [[String: Any]])
    return try #require(list.first { $0["name"] as? String == name })
  }

  func reminders(_ from: String, _ to: String, tz: String? = nil) throws -> [(at: String, title: String, body: String)]
  {
    let saved = vital.environment["TZ"]
    if let tz { vital.environment["TZ"] = tz }
    defer { vital.environment["TZ"] = saved }
    let run = try vital.run(["reminders", "list", "--from", from, "--to", to, "--json"])
    let list = try #require(run.json as? [[String: Any]], "\(run.stderr)")
    return list.map { ($0["at"] as! String, $0["title"] as! String, $0["body"] as! String) }
  }

  func history() throws -> String { try vital.run(["meds", "history"]).stdout }

  @Test func asNeededDosesKeepTheirLimits() throws {
    let add = try vital.run([
      "meds", "add", "Ibuprofen", "--as-needed", "--min-interval", "4h", "--max-per-day", "3", "--dose", "400 mg",
      "--stock", "20",
    ])
    #expect(add.status == 0, "\(add.stderr)")
    #expect(try medication("Ibuprofen")["next"] is NSNull, "allowed now")
    #expect(try vital.run(["meds", "take", "Ibuprofen"]).status == 0)
    let before = try history()
    now("2026-03-01T14:30:00Z")
    expectCleanError(try vital.run(["meds", "take", "Ibuprofen"]), mentioning: "allowed today 11:00")
    #expect(try history() == before, "nothing written")
    now("2026-03-01T16:00:00Z")
    #expect(try vital.run(["meds", "take", "Ibuprofen"]).status == 0)
    now("2026-03-01T20:30:00Z")
    #expect(try vital.run(["meds", "take", "Ibuprofen"]).status == 0)
    #expect(try medication("Ibuprofen")["next"] as? String == "2026-03-02T07:00:00-05:00", "24 hours after the first")
    now("2026-03-02T01:00:00Z")
    expectCleanError(try vital.run(["meds", "take", "Ibuprofen"]), mentioning: "3", "allowed tomorrow 07:00")
    let forced = try #require(try vital.run(["meds", "take", "Ibuprofen", "--force", "--json"]).object)
    #expect((forced["dose"] as? [String: Any])?["over_limit"] as? Bool == true)
    #expect(forced["stock"] as? Int == 16)
    #expect(try medication("Ibuprofen")["stock"] as? Int == 16)
    #expect(try reminders("2026-03-01", "2026-03-05").isEmpty, "no reminders")
    let stats = try #require(try vital.run(["meds", "stats", "--json"]).json as? [[String: Any]])
    let prn = try #require(stats.first { $0["name"] as? String == "Ibuprofen" })
    #expect(prn["taken"] as? Int == 4 && prn["over_limit"] as? Int == 1)
    let days = try #require(prn["per_day"] as? [[String: Any]])
    #expect(days.filter { ($0["count"] as? Int ?? 0) > 0 }.map { $0["count"] as! Int } == [4], "all on 1 March")
    #expect(try vital.run(["meds", "skip", "Ibuprofen"]).status == 1, "nothing to skip")
    #expect(try vital.run(["meds", "add", "Naproxen", "--as-needed", "--at", "08:00"]).status == 64)
  }

  @Test func aTaperChangesTheDoseOnItsDaysAndEnds() throws {
    let add = try vital.run([
      "meds", "add", "Prednisolone", "--at", "08:00", "--steps", "20 mg:7d,10 mg:1w,5 mg:5d", "--start", "2026-03-02",
      "--stock", "30",
    ])
    #expect(add.status == 0, "\(add.stderr)")
    let doses = try reminders("2026-03-01", "2026-03-25").map(\.body)
    #expect(doses.count == 19, "7 + 7 + 5 days")
    #expect(doses[0] == "Dose: 20 mg" && doses[6] == "Dose: 20 mg", "2 to 8 March")
    #expect(doses[7] == "Dose: 10 mg" && doses[13] == "Dose: 10 mg", "9 to 15 March")
    #expect(doses[14] == "Dose: 5 mg" && doses[18] == "Dose: 5 mg", "16 to 20 March")
    #expect(try medication("Prednisolone")["ends"] as? String == "2026-03-21T00:00:00-04:00")
    now("2026-03-09T13:05:00Z")
    let taken = try #require(try vital.run(["meds", "take", "Prednisolone", "--json"]).object)
    #expect((taken["dose"] as? [String: Any])?["dose"] as? String == "10 mg")
    #expect(taken["stock"] as? Int == 29)
    #expect(try medication("Prednisolone")["dose_today"] as? String == "10 mg")
    #expect(try vital.run(["meds", "edit", "Prednisolone", "--then-keep"]).status == 0)
    let kept = try reminders("2026-03-20", "2026-03-23")
    #expect(kept.map(\.body) == ["Dose: 5 mg", "Dose: 5 mg", "Dose: 5 mg"], "the last dose goes on")
    expectCleanError(try vital.run(["meds", "add", "Bad", "--at", "08:00", "--steps", "20 mg:0d"]), mentioning: "0d")
    expectCleanError(
      try vital.run(["meds", "add", "Bad", "--at", "08:00", "--steps", "20 mg:7d", "--dose", "1"]), mentioning: "dose")
    #expect(try vital.run(["meds", "list", "--json"]).json as? [Any] != nil)
    #expect((try vital.run(["meds", "list", "--json"]).json as? [Any])?.count == 1, "nothing half-added")
  }

  @Test func aPinnedDoseFollowsItsZoneAndALocalOneTheTraveller() throws {
    #expect(try vital.run(["meds", "add", "Thyro", "--at", "08:00", "--zone", "Europe/Berlin"]).status == 0)
    #expect(try vital.run(["meds", "add", "Iron", "--at", "08:00"]).status == 0)
    let york = try reminders("2026-03-01", "2026-04-03")
    func times(_ title: String, _ list: [(at: String, title: String, body: String)]) -> [String: String] {
      Dictionary(uniqueKeysWithValues: list.filter { $0.title == title }.map { (String($0.at.prefix(10)), $0.at) })
    }
    let pinned = times("Take Thyro", york)
    #expect(pinned["2026-03-07"] == "2026-03-07T02:00:00-05:00")
    #expect(pinned["2026-03-09"] == "2026-03-09T03:00:00-04:00", "New York is on summer time, Berlin not yet")
    #expect(pinned["2026-03-28"] == "2026-03-28T03:00:00-04:00")
    #expect(pinned["2026-03-30"] == "2026-03-30T02:00:00-04:00")
    let local = times("Take Iron", york)
    #expect(local["2026-03-07"] == "2026-03-07T08:00:00-05:00" && local["2026-03-09"] == "2026-03-09T08:00:00-04:00")
    let berlin = try reminders("2026-03-01", "2026-04-03", tz: "Europe/Berlin")
    #expect(times("Take Thyro", berlin)["2026-03-09"] == "2026-03-09T08:00:00+01:00")
    #expect(times("Take Iron", berlin)["2026-03-09"] == "2026-03-09T08:00:00+01:00")
    #expect(times("Take Thyro", berlin)["2026-03-30"] == "2026-03-30T08:00:00+02:00")
    expectCleanError(
      try vital.run(["meds", "add", "Bad", "--at", "08:00", "--zone", "Mars/Olympus"]), mentioning: "Mars")
  }

  @Test func aLateDoseShiftsTheDayAndASnoozeComesOnce() throws {
    #expect(try vital.run(["meds", "add", "Vit", "--at", "08:00", "--at", "20:00"]).status == 0)
    #expect(try vital.run(["meds", "add", "Cipro", "--at", "08:00", "--at", "14:00", "--min-gap", "8h"]).status == 0)
    now("2026-03-01T15:30:00Z")  // 10:30
    let shifted = try #require(try vital.run(["meds", "take", "Vit", "--shift", "--json"]).object)
    #expect(shifted["shifted"] as? String == "2h30m")
    #expect(try vital.run(["meds", "take", "Cipro"]).status == 0)
    let today = try reminders("2026-03-01 10:31", "2026-03-02")
    #expect(
      today.map { "\($0.title) \($0.at)" } == [
        "Take Cipro 2026-03-01T18:30:00-05:00", "Take Vit 2026-03-01T22:30:00-05:00",
      ])
    #expect(try reminders("2026-03-02", "2026-03-02 21:00").count == 4, "tomorrow as planned")
    now("2026-03-01T23:35:00Z")  // 18:35: Cipro's moved dose is due
    let snooze = try vital.run(["meds", "snooze", "Cipro", "--for", "20m"])
    #expect(snooze.status == 0, "\(snooze.stderr)")
    let again = try reminders("2026-03-01 18:36", "2026-03-01 19:30")
    #expect(again.map { "\($0.title) \($0.at)" } == ["Take Cipro (snoozed) 2026-03-01T18:55:00-05:00"])
    expectCleanError(try vital.run(["meds", "snooze", "Vit"]), mentioning: "due")
    let early = try vital.run(["meds", "take", "Vit", "--dose", "20:00", "--shift"])
    expectCleanError(early, mentioning: "late")
  }

  @Test func editKeepsThePastAndUndoRestoresTheStock() throws {
    #expect(try vital.run(["meds", "add", "Iron", "--at", "08:00", "--dose", "1 tablet", "--stock", "10"]).status == 0)
    now("2026-03-01T13:10:00Z")
    #expect(try vital.run(["meds", "take", "Iron"]).status == 0)
    now("2026-03-03T12:00:00Z")
    let edit = try vital.run(["meds", "edit", "Iron", "--at", "09:00", "--dose", "2 tablets", "--stock", "30"])
    #expect(edit.status == 0, "\(edit.stderr)")
    let doses = try #require(try vital.run(["meds", "history", "--json"]).json as? [[String: Any]])
    #expect(
      doses.map { "\($0["scheduled_at"]!) \($0["dose"]!) \($0["status"]!)" } == [
        "2026-03-01T08:00:00-05:00 1 tablet taken", "2026-03-02T08:00:00-05:00 1 tablet missed",
      ], "the doses before the edit as they were scheduled")
    let next = try reminders("2026-03-03 07:30", "2026-03-04 10:00")
    #expect(
      next.map { "\($0.at) \($0.body)" } == [
        "2026-03-03T09:00:00-05:00 Dose: 2 tablets", "2026-03-04T09:00:00-05:00 Dose: 2 tablets",
      ], "from the edit on")
    now("2026-03-04T14:05:00Z")
    #expect(try vital.run(["meds", "take", "Iron"]).status == 0)
    #expect(try medication("Iron")["stock"] as? Int == 29)
    let undo = try vital.run(["meds", "undo", "Iron"])
    #expect(undo.status == 0 && undo.stdout.contains("30 in stock"), "\(undo.stdout)")
    #expect(try medication("Iron")["stock"] as? Int == 30)
    #expect(try vital.run(["meds", "undo", "Iron"]).status == 0)
    #expect(try medication("Iron")["stock"] as? Int == 30, "the take of 1 March came before the stock was counted")
    expectCleanError(try vital.run(["meds", "undo", "Iron"]), mentioning: "Iron")
  }

  @Test func aPauseLeavesItsDaysOutAndResumeBringsThemBack() throws {
    #expect(try vital.run(["meds", "add", "Iron", "--at", "08:00"]).status == 0)
    #expect(try vital.run(["meds", "pause", "Iron", "--until", "2026-03-04"]).status == 0)
    #expect(try reminders("2026-03-01", "2026-03-05").map(\.at) == ["2026-03-04T08:00:00-05:00"])
    expectCleanError(try vital.run(["meds", "pause", "Iron", "--until", "2026-02-01"]), mentioning: "after today")
    #expect(try vital.run(["meds", "resume", "Iron"]).status == 0)
    #expect(try reminders("2026-03-01", "2026-03-05").count == 4)
    #expect(try vital.run(["meds", "edit", "Iron", "--expires", "2026-04-01"]).status == 0)
    let notice = try reminders("2026-03-18", "2026-03-19").filter { $0.title.contains("expires") }
    #expect(notice.map(\.at) == ["2026-03-18T09:00:00-04:00"], "14 days before, at 09:00")
  }

  @Test func theCalendarRepeatsAndAnAppShowsTheListedInstantsForAYear() throws {
    now("2026-02-20T12:00:00Z")
    #expect(try vital.run(["meds", "add", "Vit", "--at", "08:00", "--at", "20:00", "--dose", "1"]).status == 0)
    now("2026-03-01T15:30:00Z")  // 10:30 in New York
    #expect(try vital.run(["meds", "edit", "Vit", "--dose", "2"]).status == 0, "a past plan with missed doses")
    #expect(try vital.run(["meds", "add", "Thyro", "--at", "08:00", "--zone", "Europe/Berlin"]).status == 0)
    #expect(try vital.run(["meds", "add", "Iron", "--at", "08:00", "--days", "mon,thu"]).status == 0)
    #expect(try vital.run(["meds", "add", "Night", "--at", "02:30"]).status == 0, "skipped by the clocks on 8 March")
    #expect(try vital.run(["meds", "add", "Pred", "--at", "09:00", "--steps", "20 mg:7d,10 mg:7d"]).status == 0)
    #expect(try vital.run(["meds", "pause", "Iron", "--until", "2026-03-10"]).status == 0)
    #expect(try vital.run(["meds", "take", "Vit", "--shift"]).status == 0, "20:00 moves to 22:30")
    let (from, to) = ("2026-02-25T00:00:00-05:00", "2027-02-25T00:00:00-05:00")
    let file = vital.root + "/doses.ics"
    let written = try vital.run(["reminders", "ics", "--from", "2026-02-25", "--to", "2027-02-25", "--out", file])
    #expect(written.status == 0, "\(written.stderr)")
    let ics = try String(contentsOfFile: file, encoding: .utf8)
    #expect(ics.contains("TZID:Europe/Berlin") && ics.contains("TZID:America/New_York"))
    #expect(ics.components(separatedBy: "RRULE:FREQ=DAILY").count - 1 >= 5)
    #expect(ics.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TH"))
    #expect(ics.components(separatedBy: "BEGIN:VEVENT").count - 1 < 30, "repeating events, not one per dose")

    let expanded = try #require(
      try JSONSerialization.jsonObject(with: try runChecker("check-ics-expand", [file, from, to])) as? [[String: Any]])
    let list = try #require(
      try vital.run(["reminders", "list", "--from", "2026-02-25", "--to", "2027-02-25", "--json"]).json
        as? [[String: Any]])
    let utc = ISO8601DateFormatter()
    func instant(_ text: String) -> String { utc.string(from: ISO8601DateFormatter().date(from: text)!) }
    let listed = list.map { "\(instant($0["at"] as! String)) \($0["title"]!)" }.sorted()
    let shown = expanded.map { "\($0["at"]!) \($0["summary"]!)" }.sorted()
    #expect(listed.count > 1500)
    #expect(shown == listed, "\(Set(shown).symmetricDifference(listed).sorted().prefix(6))")
  }
}
