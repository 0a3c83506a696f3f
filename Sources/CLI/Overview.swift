import CLIApp
import CLICore
import Core
import Foundation
import Records
import Views

/// What plain `vital` shows once an account exists: today across every feature, each part
/// only when it has something to say.
struct Overview {
  let account: Account?
  let profile: Profile?
  let today: TodayView?
  let app: App

  init(app: App) throws {
    self.app = app
    account = app.currentAccount()
    guard let account else {
      (profile, today) = (nil, nil)
      return
    }
    let profile = try ProfileStore(db: app.db, account: account, now: app.now).load()
    self.profile = profile
    today = try TodayView.gather(db: app.db, account: account, profile: profile, now: app.now, calendar: app.calendar)
  }

  var json: JSON {
    guard let account, let profile, let today else { return .object([("logged_in", .bool(false))]) }
    let donor = today.donor
    let doses: [JSON] = today.doses.map { d in
      .object([
        ("medication", .string(d.medication)), ("scheduled_at", app.iso(d.scheduledAt)),
        ("overdue", .bool(d.overdue)), ("command", .string(Self.takeCommand(d, app: app))),
      ])
    }
    var cycle = JSON.null
    if let c = today.cycle {
      cycle = .object([
        ("day", .int(c.day)), ("ongoing", .bool(c.ongoing)), ("next_period", .optional(c.nextPeriod?.description)),
        ("late_days", c.late.map { JSON.int($0.days) } ?? .null),
      ])
    }
    let goals: [JSON] = today.goals.map { p in
      let percent: JSON = p.percent.map { JSON.double(($0 * 10).rounded() / 10) } ?? .null
      return .object([
        ("id", .string(p.goal.id)), ("type", .string(p.goal.kind.name)), ("target", .double(p.goal.target)),
        ("unit", .string(p.goal.kind.measure.unit)), ("value", HealthJSON.number(p.value)), ("percent", percent),
        ("last_data", .optional(p.lastData?.description)),
      ])
    }
    let reminders: [JSON] = today.reminders.map { r in
      .object([("at", app.iso(r.at)), ("kind", .string(r.source.rawValue)), ("title", .string(r.title))])
    }
    let region: JSON = profile.regionChosen ? .string(profile.region.rawValue) : .null
    let appointment: JSON = donor.appointment.map(app.json) ?? .null
    let daysLeft: JSON = donor.daysLeft.map { JSON.int($0) } ?? .null
    return .object([
      ("logged_in", .bool(true)), ("account", account.json), ("blood_type", .optional(profile.bloodType?.description)),
      ("region", region), ("doses", .array(doses)), ("cycle", cycle), ("goals", .array(goals)),
      ("next_appointment", appointment), ("days_left", daysLeft), ("missed", .bool(donor.missed)),
      ("next_eligible", .optional(donor.nextEligible?.description)), ("eligibility", app.json(donor.eligibility)),
      ("reminders", .array(reminders)),
    ])
  }

  /// `vital meds take Ramipril --dose 08:00`: what to type to record it.
  static func takeCommand(_ d: TodayView.DueDose, app: App) -> String {
    let c = app.calendar.dateComponents([.hour, .minute], from: d.scheduledAt)
    let name = d.medication.contains(" ") ? "'\(d.medication)'" : d.medication
    return "vital meds take \(name) --dose " + String(format: "%02d:%02d", c.hour!, c.minute!)
  }

  var text: String {
    guard let account, let profile, let today else {
      return
        "Not logged in. Log in with 'vital account login --email EMAIL', or create another account with 'vital account register'."
    }
    let human = HumanText(now: app.now, calendar: app.calendar)
    var lines = ["Vital — \(account.human), \(app.fullDate(app.now))"]
    if !today.doses.isEmpty {
      lines += ["", "Doses due"]
      var table = TextTable(["time", "medication", "", "take it with"])
      for d in today.doses {
        let c = app.calendar.dateComponents([.hour, .minute], from: d.scheduledAt)
        table.add([
          String(format: "%02d:%02d", c.hour!, c.minute!), d.medication, d.overdue ? "overdue" : "due",
          Self.takeCommand(d, app: app),
        ])
      }
      lines += table.text.split(separator: "\n").dropFirst().map { "  " + $0 }
    }
    if let cycle = today.cycle {
      var line = "  cycle day \(cycle.day)\(cycle.ongoing ? " (period ongoing)" : "")"
      if let late = cycle.late {
        line += "; period \(HumanText.count(late.days, "day")) late (expected \(human.day(late.expected)))"
      } else if let next = cycle.nextPeriod {
        line += "; next period around \(human.day(next))"
      }
      lines += ["", "Cycle", line]
    }
    if !today.goals.isEmpty {
      lines += ["", "Goals today"]
      lines += today.goals.map { "  " + GoalsContext.bar($0, human: human) }
    }
    lines += ["", "Blood donation"]
    let donor = today.donor
    if let appointment = donor.appointment, let when = donor.when(human) {
      lines.append("  appointment    \(when), \(appointment.place)")
      if let advice = donor.missedAdvice { lines.append("                 " + advice) }
    }
    lines.append("  may donate     \(donor.mayDonate(human))")
    if profile.bloodType == nil { lines.append("  blood type     not set (vital profile set --blood-type A+)") }
    if !today.reminders.isEmpty {
      lines += ["", "Next reminders"]
      lines += today.reminders.map { "  \(human.time($0.at))  \($0.title)" }
    }
    lines += ["", "See 'vital --help' for every command."]
    return lines.joined(separator: "\n")
  }
}
