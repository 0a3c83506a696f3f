import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital {
  struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "profile",
      abstract: "Show or change who you are: name, blood type, sex, birth date, weight, region, avatar.",
      subcommands: [Show.self, Set.self, AvatarCommand.self]
    )
  }
}

extension Vital.ProfileCommand {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show your profile.",
      discussion: """
        Examples:
          vital profile show
          vital profile show --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let profile = try ProfileStore(db: app.db, account: account, now: app.now).load()
      try Self.present(profile, of: account, app: app)
    }

    /// `profile show` and `profile set` print the same: the profile and the donation counts.
    static func present(_ profile: Profile, of account: Account, app: App) throws {
      let donations = DonationStore(db: app.db, account: account, now: app.now, calendar: app.calendar)
      let completed = try donations.completedCount()
      let next = try donations.scheduled()
      var json = profile.json(account: account)
      if case .object(var members) = json {
        members.append(("donations", .object([("completed", .int(completed)), ("next", next.map(app.json) ?? .null)])))
        json = .object(members)
      }
      try app.output.show(json) {
        profile.text(account: account)
          + "\ndonations   \(completed) completed; next: \(next.map { app.line($0) } ?? "-")"
      }
    }
  }

  struct Set: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Change profile fields; an empty value (--surname '') clears a text field.",
      discussion: """
        Examples:
          vital profile set --blood-type A+ --sex female --birth-date 1990-05-01
          vital profile set --weight-kg 61.5 --region uk
          vital profile set --surname ''
        """, aliases: ["edit"])
    @OptionGroup var global: GlobalOptions
    @Option(help: "What Vital calls you.") var name: String?
    @Option(help: "Your surname.") var surname: String?
    @Option(help: "A+ A- B+ B- AB+ AB- O+ O- (0 is read as O).") var bloodType: BloodType?
    @Option(help: "female or male (the donation rules differ).") var sex: Sex?
    @Option(help: "YYYY-MM-DD.") var birthDate: LocalDate?
    @Option(help: "Body weight in kilograms.") var weightKg: Double?
    @Option(help: "Whose blood-donation rules apply: de, us or uk.") var region: Region?

    func validate() throws {
      if name == nil && surname == nil && bloodType == nil && sex == nil && birthDate == nil && weightKg == nil
        && region == nil
      {
        throw ValidationError("nothing to change; name at least one field, e.g. --blood-type A+")
      }
      if let weightKg, !(20...400).contains(weightKg) {
        throw ValidationError("--weight-kg must be between 20 and 400")
      }
      if let birthDate, birthDate.year < 1900 {
        throw ValidationError("--birth-date must be after 1900")
      }
    }

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let store = ProfileStore(db: app.db, account: account, now: app.now)
      if let birthDate, birthDate > LocalDate(app.now, in: app.calendar) {
        throw CLIError.futureDate(option: "--birth-date", value: birthDate.description)
      }
      var profile = try store.load()
      if let name { profile.name = name.isEmpty ? nil : name }
      if let surname { profile.surname = surname.isEmpty ? nil : surname }
      if let bloodType { profile.bloodType = bloodType }
      if let sex { profile.sex = sex }
      if let birthDate { profile.birthDate = birthDate.description }
      if let weightKg { profile.weightKg = weightKg }
      if let region { profile.region = region }
      try app.db.transaction { _ in
        try store.save(profile, chosen: region == nil ? [] : ["region"])
        if let name { try app.accounts.rename(account, to: name) }
      }
      let updated = Account(
        id: account.id, email: account.email, name: name.map { $0.isEmpty ? nil : $0 } ?? account.name)
      try Show.present(profile, of: updated, app: app)
    }
  }
}

extension Profile {
  func json(account: Account) -> JSON {
    .object([
      ("email", .string(account.email)),
      ("name", .optional(name ?? account.name)),
      ("surname", .optional(surname)),
      ("blood_type", .optional(bloodType?.description)),
      ("sex", .optional(sex?.rawValue)),
      ("birth_date", .optional(birthDate)),
      ("weight_kg", weightKg.map(JSON.double) ?? .null),
      ("region", regionChosen ? .string(region.rawValue) : .null),
      ("avatar", avatar?.json ?? .null),
    ])
  }

  func text(account: Account) -> String {
    let unset = "-"
    return [
      "email       \(account.email)",
      "name        \(name ?? account.name ?? unset)",
      "surname     \(surname ?? unset)",
      "blood type  \(bloodType?.description ?? unset)",
      "sex         \(sex?.rawValue ?? unset)",
      "birth date  \(birthDate ?? unset)",
      "weight      \(weightKg.map { "\($0.formatted()) kg" } ?? unset)",
      "region      \(regionChosen ? region.rawValue : "- (not set; set it with 'vital profile set --region de|us|uk')")",
      "avatar      \(avatar.map { "\($0.mime) \($0.width)x\($0.height), \($0.bytes) bytes" } ?? unset)",
    ].joined(separator: "\n")
  }
}

extension Avatar {
  var json: JSON {
    .object([
      ("sha256", .string(sha256)), ("mime", .string(mime)), ("width", .int(width)), ("height", .int(height)),
      ("bytes", .int(bytes)),
    ])
  }
}
