import CLICore
import Core
import Foundation
import Health

/// What plain `vital` shows once an account exists: one screen of what matters now.
struct Overview {
  let account: Account?
  let profile: Profile?
  let appointment: Donation?
  let daysLeft: Int?
  let nextEligible: LocalDate?
  let app: App

  init(app: App) throws {
    self.app = app
    account = app.currentAccount()
    guard let account else {
      (profile, appointment, daysLeft, nextEligible) = (nil, nil, nil, nil)
      return
    }
    let profile = try ProfileStore(db: app.db, account: account, now: app.now).load()
    let status = try DonationStore(db: app.db, account: account, now: app.now, calendar: app.calendar)
      .status(profile: profile)
    self.profile = profile
    appointment = status.appointment
    daysLeft = status.daysLeft
    nextEligible = status.nextEligible
  }

  var json: JSON {
    guard let account, let profile else { return .object([("logged_in", .bool(false))]) }
    return .object([
      ("logged_in", .bool(true)),
      ("account", account.json),
      ("blood_type", .optional(profile.bloodType?.description)),
      ("region", .string(profile.region.rawValue)),
      ("next_appointment", appointment.map(app.json) ?? .null),
      ("days_left", daysLeft.map { JSON.int($0) } ?? .null),
      ("next_eligible", .optional(nextEligible?.description)),
    ])
  }

  var text: String {
    guard let account, let profile else {
      return
        "Not logged in. Log in with 'vital account login --email EMAIL', or create another account with 'vital account register'."
    }
    var lines = ["Vital — \(account.human)"]
    lines.append("  blood type     \(profile.bloodType?.description ?? "not set (vital profile set --blood-type A+)")")
    if let appointment, let daysLeft {
      let when = daysLeft == 0 ? "today" : daysLeft == 1 ? "tomorrow" : daysLeft > 0 ? "in \(daysLeft) days" : "passed"
      lines.append("  appointment    \(app.human(appointment.scheduledAt)) (\(when)), \(appointment.place)")
    } else {
      lines.append("  appointment    none (vital donor book --at ... --place ...)")
    }
    lines.append(
      "  may donate     \(nextEligible.map { $0 <= app.today ? "now" : "from \($0)" } ?? "see vital donor eligibility")"
    )
    lines.append("")
    lines.append("See 'vital --help' for every command.")
    return lines.joined(separator: "\n")
  }
}
