import Core
import Foundation
import Replication
import Storage

extension Profile {
  /// The profile as it is stored, synced and exported: one property per column. `Profile` is
  /// what commands and rules read (a blood type of two columns, the avatar's facts).
  public struct Stored: Equatable, Sendable {
    public enum Rhesus: String, CaseIterable, Sendable {
      case positive = "+"
      case negative = "-"
    }

    public var id = ""
    public var name: String?
    public var surname: String?
    public var abo: BloodType.Group?
    public var rhesus: Rhesus?
    public var sex: Sex?
    /// `YYYY-MM-DD`.
    public var birthDate: String?
    public var weightKg: Double?
    public var region = Region.de
    public var avatarSHA256: String?

    public init() {}
  }

  public init(_ stored: Stored) {
    self.init()
    (name, surname, sex, birthDate, weightKg) = (
      stored.name, stored.surname, stored.sex, stored.birthDate, stored.weightKg
    )
    if let abo = stored.abo, let rhesus = stored.rhesus {
      bloodType = BloodType(group: abo, rhesusPositive: rhesus == .positive)
    }
    region = stored.region
    regionChosen = false
  }

  /// The stored record of this profile under `id` (the avatar is set apart: `setAvatar`).
  public func stored(id: String) -> Stored {
    var stored = Stored()
    (stored.id, stored.name, stored.surname, stored.sex) = (id, name, surname, sex)
    stored.abo = bloodType?.group
    stored.rhesus = bloodType.map { $0.rhesusPositive ? .positive : .negative }
    (stored.birthDate, stored.weightKg, stored.region, stored.avatarSHA256) = (
      birthDate, weightKg, region, avatar?.sha256
    )
    return stored
  }
}

extension Profile.Stored {
  public static let shape = RecordShape<Profile.Stored>(
    blank: { Profile.Stored() },
    [
      .text("id", \.id), .text("name", \.name, rule: .text(maxBytes: 500)),
      .text("surname", \.surname, rule: .text(maxBytes: 500)), .choice("abo", \.abo), .choice("rhesus", \.rhesus),
      .choice("sex", \.sex), .text("birth_date", \.birthDate, rule: .day(years: 1900...2200), onFault: .missing),
      .number("weight_kg", \.weightKg, 1...700, "CHECK (weight_kg > 0)"),
      // A profile that never said its region is under Germany's rules (`regionChosen` tells).
      .choice("region", \.region, preset: .de), .text("avatar_sha256", \.avatarSHA256, rule: .sha256),
    ])

  /// What `profile set` edits: everything but the avatar, which has commands of its own.
  static let edited = shape.selection(of: [
    \.name, \.surname, \.abo, \.rhesus, \.sex, \.birthDate, \.weightKg, \.region,
  ])
}
