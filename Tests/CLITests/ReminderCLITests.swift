import Foundation
import Testing

@Suite struct ReminderCLITests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-03-20T11:00:00Z"
    // No desktop session: notify prints to stdout.
    vital.environment["DBUS_SESSION_BUS_ADDRESS"] = ""
    vital.environment["XDG_RUNTIME_DIR"] = vital.root
    let run = try vital.run(
      ["account", "register", "--email", "remind@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
    try #require(try vital.run(["profile", "set", "--sex", "male", "--weight-kg", "80"]).status == 0)
    let questions = try #require(try vital.run(["donor", "questions", "--json"]).json as? [[String: Any]])
    let answers = Dictionary(uniqueKeysWithValues: questions.map { ($0["id"] as! String, false) })
    let json = String(decoding: try JSONSerialization.data(withJSONObject: answers), as: UTF8.self)
    try #require(try vital.run(["donor", "questionnaire", "--answers", "-"], stdin: json).status == 0)
    let booked = try vital.run(["donor", "book", "--at", "2026-03-29 09:00", "--place", "DRK, Haus 3"])
    try #require(booked.status == 0, "\(booked.stderr)")
  }

  @Test func discreetNotificationsNameNothing() throws {
    #expect(try vital.run(["reminders", "discreet", "--json"]).object?["discreet"] as? Bool == false)
    #expect(try vital.run(["reminders", "discreet", "on"]).status == 0)
    vital.environment["VITAL_NOW"] = "2026-03-28T08:05:00Z"
    let run = try vital.run(["reminders", "notify"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "Vital: 1 reminder\n")
    #expect(!run.stdout.contains("DRK"))
    #expect(try vital.run(["reminders", "notify"]).stdout.isEmpty, "delivered once, as before")
    #expect(try vital.run(["reminders", "discreet", "off", "--json"]).object?["discreet"] as? Bool == false)
  }

  @Test func listShowsTheAppointmentRemindersInLocalTime() throws {
    let list = try #require(
      try vital.run(["reminders", "list", "--to", "2026-03-30", "--json"]).json as? [[String: Any]])
    #expect(list.compactMap { $0["at"] as? String } == ["2026-03-28T09:00:00+01:00", "2026-03-29T07:00:00+02:00"])
    #expect(list.first?["kind"] as? String == "donation")
    #expect(try vital.run(["reminders", "disable", "donation"]).status == 0)
    #expect((try vital.run(["reminders", "list", "--to", "2026-03-30", "--json"]).json as? [Any])?.isEmpty == true)
    let bad = try vital.run(["reminders", "enable", "weather"])
    #expect(bad.status == 64)
  }

  @Test func theCalendarFileParsesWithARealICalendarParser() throws {
    #expect(try vital.run(["meds", "add", "Iron", "--at", "08:00", "--dose", "1 tablet"]).status == 0)
    let file = vital.root + "/reminders.ics"
    let written = try vital.run(["reminders", "ics", "--to", "2026-03-30", "--out", file])
    #expect(written.status == 0, "\(written.stderr)")
    // Through scripts/py: the parser lives in the checkout's virtual environment (scripts/bootstrap).
    let data = try runChecker("check-ics", [file])
    let events = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    let donation = try #require(events.first { ($0["uid"] as? String)?.hasPrefix("donation-") == true })
    #expect(donation["start"] as? String == "2026-03-29T07:00:00+00:00")
    #expect(donation["alarms"] as? [String] == ["-P1D", "-PT2H"])
    let doses = events.filter { $0["summary"] as? String == "Take Iron" }
    #expect(doses.count == 1, "one repeating event from 21 March")
    #expect(doses.first?["start"] as? String == "2026-03-21T08:00:00+01:00", "08:00 in the zone it names")
    #expect(doses.first?["alarms"] as? [String] == ["P0D"], "at the dose's time")
    // The same export again gives the same UIDs: a calendar app updates instead of duplicating.
    let again = try vital.run(["reminders", "ics", "--to", "2026-03-30"]).stdout.replacingOccurrences(
      of: "\r\n ", with: "")
    let uids = events.compactMap { $0["uid"] as? String }
    #expect(uids.allSatisfy { again.contains("UID:\($0)") })
  }

  @Test func notifyDeliversEachReminderOnceEvenWhenTwoRunAtOnce() throws {
    vital.environment["VITAL_NOW"] = "2026-03-28T08:00:30Z"  // 09:00:30 in Berlin
    final class Runs: @unchecked Sendable {
      let vital: VitalHome
      var outputs = [String](repeating: "", count: 2)
      init(_ vital: VitalHome) { self.vital = vital }
    }
    let runs = Runs(vital)
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      let run = try? runs.vital.run(["reminders", "notify"])
      runs.outputs[i] = run.map { "\($0.status) \($0.stdout)" } ?? "failed"
    }
    let outputs = runs.outputs
    #expect(outputs.allSatisfy { $0.hasPrefix("0 ") }, "\(outputs)")
    let lines = outputs.joined().split(separator: "\n").filter { $0.contains("Blood donation") }
    #expect(lines.count == 1, "\(outputs)")
    #expect(lines.first?.contains("reminder: today 09:00") == true, "\(lines)")
    #expect(try vital.run(["reminders", "notify"]).stdout == "")

    // Two days later, the 2-hours-before reminder is more than 12 hours old: reported missed, once.
    vital.environment["VITAL_NOW"] = "2026-03-30T08:00:00Z"
    let late = try vital.run(["reminders", "notify", "--json"])
    #expect(
      (late.object?["missed"] as? [[String: Any]])?.compactMap { $0["at"] as? String } == [
        "2026-03-29T07:00:00+02:00"
      ])
    #expect((try vital.run(["reminders", "notify", "--json"]).object?["missed"] as? [Any])?.isEmpty == true)
  }

  @Test func notifyUsesNotifySendWhenASessionBusExists() throws {
    let bin = vital.root + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let log = vital.root + "/notifications"
    let script = "#!/bin/sh\nprintf '%s|' \"$@\" >> \(log)\necho >> \(log)\n"
    #expect(
      FileManager.default.createFile(
        atPath: bin + "/notify-send", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
    vital.environment["PATH"] = bin + ":/usr/bin:/bin"
    vital.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent"
    vital.environment["VITAL_NOW"] = "2026-03-29T05:00:00Z"
    let run = try vital.run(["reminders", "notify"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "")
    let sent = try String(contentsOfFile: log, encoding: .utf8)
    #expect(
      sent.hasPrefix(
        "--app-name=Vital|--|Blood donation (whole blood)|today 07:00: Appointment at DRK, Haus 3."))
  }
}
