/// What to do as an appointment comes closer, and after a donation. Written in our own words
/// from the donor app's lists and the blood services' guidance.
public enum Advice {
  /// Advice for `daysLeft` calendar days before a donation of `kind` (0 = the day itself).
  public static func before(daysLeft: Int, kind: DonationKind) -> [String] {
    var lines: [String]
    switch daysLeft {
    case 3...:
      lines = [
        "Drink at least 2 litres of water a day.",
        "Sleep at least 7 hours a night.",
        "Eat balanced meals with iron-rich food (pulses, greens, meat or fish).",
        "Keep moving: a daily walk helps.",
        "Avoid medicines you do not need; ask your doctor about the ones you do.",
      ]
    case 2:
      lines = [
        "Two days to go: drink at least 2 litres of water a day.",
        "Sleep at least 7 hours a night.",
        "Eat balanced meals.",
        "No alcohol from now until after the donation.",
        "Avoid medicines you do not need.",
      ]
    case 1:
      lines = [
        "Tomorrow is the day: drink plenty of water today.",
        "Sleep at least 7 hours tonight.",
        "Skip fatty food today and tomorrow morning: it clouds the plasma.",
        "No alcohol.",
        "Read the donor guide: vital donor guide.",
      ]
    default:
      lines = [
        "Eat a light, low-fat breakfast and drink half a litre of water before you go.",
        "Do not smoke in the hour before donating.",
        "Bring your ID (and your donor card, if you have one).",
        "Tell the staff about any medicine you took in the last days.",
      ]
    }
    switch kind {
    case .platelets where daysLeft <= 2:
      lines.append("Platelets: no aspirin or ibuprofen in the 48 hours before; they stop platelets from working.")
    case .plasma where daysLeft <= 1:
      lines.append("Plasma: drink an extra litre of water; plasma is mostly water.")
    case .doubleRed where daysLeft <= 1:
      lines.append("Double red cells: eat iron-rich food; you give twice the red cells of a whole-blood donation.")
    default:
      break
    }
    return lines
  }

  /// Recovery advice for the first two days after a donation (`daysSince` 0 or 1).
  public static func after(daysSince: Int, kind: DonationKind) -> [String] {
    guard (0...1).contains(daysSince) else { return [] }
    var lines = [
      "Drink more than usual today and tomorrow.",
      "Keep the bandage on for a few hours; if the arm bleeds, press and raise it.",
      "No heavy lifting with that arm and no hard sport for 24 hours.",
      "If you feel dizzy, lie down with your legs raised.",
    ]
    if kind == .wholeBlood || kind == .doubleRed {
      lines.append("Eat iron-rich food for the next weeks to rebuild your red cells.")
    }
    return lines
  }
}
