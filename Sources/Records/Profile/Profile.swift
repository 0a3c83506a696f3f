import Foundation

/// What a person tells Vital about themselves. The donation rules read sex, age, weight and region.
public struct Profile: Equatable, Sendable {
  /// What Vital calls the person; synced, unlike the local account's own name.
  public var name: String?
  public var surname: String?
  public var bloodType: BloodType?
  public var sex: Sex?
  /// `YYYY-MM-DD`.
  public var birthDate: String?
  public var weightKg: Double?
  public var region: Region = .de {
    didSet { regionChosen = true }
  }
  /// Whether the person chose the region (a new profile reads `de` until they do); setting
  /// `region` chooses it.
  public var regionChosen = false
  public var avatar: Avatar?

  /// What the donation rules need and the person has not said yet, as they would name it.
  public var missingForDonation: [String] {
    var missing: [String] = []
    if !regionChosen { missing.append("region") }
    if sex == nil { missing.append("sex") }
    if birthDate == nil { missing.append("birth date") }
    if weightKg == nil { missing.append("weight") }
    return missing
  }

  public init() {}
}

public enum Sex: String, CaseIterable, Sendable {
  case female, male
}

/// The blood service whose rules apply.
public enum Region: String, CaseIterable, Sendable {
  case de, us, uk

  /// `Germany`: whose blood-donation rules apply, in words.
  public var name: String {
    switch self {
    case .de: return "Germany"
    case .us: return "United States"
    case .uk: return "United Kingdom"
    }
  }
}

/// ABO group and rhesus factor. `0` is read as `O`, as German donor cards write it.
public struct BloodType: Equatable, Sendable, CustomStringConvertible {
  public enum Group: String, CaseIterable, Sendable {
    case a = "A"
    case b = "B"
    case ab = "AB"
    case o = "O"
  }
  public var group: Group
  public var rhesusPositive: Bool

  public init(group: Group, rhesusPositive: Bool) {
    self.group = group
    self.rhesusPositive = rhesusPositive
  }

  public init?(_ text: String) {
    var t = text.trimmingCharacters(in: .whitespaces).uppercased()
    guard let sign = t.popLast(), sign == "+" || sign == "-" else { return nil }
    if t == "0" { t = "O" }
    guard let group = Group(rawValue: t) else { return nil }
    self.init(group: group, rhesusPositive: sign == "+")
  }

  public var description: String { group.rawValue + (rhesusPositive ? "+" : "-") }
}

/// A stored avatar's facts, as `profile show` reports them.
public struct Avatar: Equatable, Sendable {
  public var sha256: String
  public var mime: String
  public var width: Int
  public var height: Int
  public var bytes: Int
}
