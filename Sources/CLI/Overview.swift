import Auth
import CLICore
import Health

/// What plain `vital` shows once an account exists: one screen of what matters now.
struct Overview {
  let account: Account?
  let profile: Profile?

  init(app: App) throws {
    account = app.currentAccount()
    profile = try account.map { try ProfileStore(db: app.db, account: $0, now: app.now).load() }
  }

  var json: JSON {
    guard let account, let profile else { return .object([("logged_in", .bool(false))]) }
    return .object([
      ("logged_in", .bool(true)),
      ("account", account.json),
      ("blood_type", .optional(profile.bloodType?.description)),
      ("region", .string(profile.region.rawValue)),
    ])
  }

  var text: String {
    guard let account, let profile else {
      return
        "Not logged in. Log in with 'vital account login --email EMAIL', or create another account with 'vital account register'."
    }
    var lines = ["Vital — \(account.human)"]
    lines.append("  blood type  \(profile.bloodType?.description ?? "not set (vital profile set --blood-type A+)")")
    lines.append("  region      \(profile.region.rawValue)")
    lines.append("")
    lines.append("See 'vital --help' for every command.")
    return lines.joined(separator: "\n")
  }
}
