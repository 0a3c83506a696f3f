/// `vital donor guide`: before, after, and what rules a donor out, per blood service. In our own
/// words, after the donor app's recommendations tab and the services' public guidance.
public enum Guide {
  public struct Section: Sendable {
    public let title: String
    public let lines: [String]
  }

  public static func sections(for region: Region) -> [Section] {
    let rules = DonationRules.forRegion(region)
    let weight = rules.minimumWeightKg.formatted()
    var who = [
      "Age \(rules.minimumAge) to \(rules.maximumAge); a first donation up to \(rules.maximumFirstDonationAge).",
      "At least \(weight) kg body weight.",
      "Feeling well on the day: no cold, fever or diarrhoea in the last week.",
    ]
    switch region {
    case .de:
      who += [
        "Whole blood: 56 days apart; at most 4 times in 12 months for women, 6 for men.",
        "Plasma: 2 days apart, up to 60 times a year; platelets about every 14 days, up to 26 times a year.",
      ]
    case .us:
      who += [
        "Whole blood every 56 days (up to 6 a year); Power Red every 112 days (up to 3 a year).",
        "Platelets every 7 days (up to 24 a year); plasma every 28 days (up to 13 a year).",
      ]
    case .uk:
      who += [
        "Whole blood: every 12 weeks for men, every 16 weeks for women.",
        "Platelets: every 2 weeks, up to 24 times a year.",
      ]
    }
    return [
      Section(
        title: "Before you donate",
        lines: [
          "Drink at least 2 litres of water a day in the days before, and half a litre just before.",
          "Sleep well the night before and eat a normal, low-fat meal 2 to 3 hours before.",
          "No alcohol the day before; no smoking in the hour before.",
          "Bring an ID with a photo, and your donor card if you have one.",
          "Platelets: no aspirin or ibuprofen in the 48 hours before.",
        ]),
      Section(
        title: "After you donate",
        lines: [
          "Rest for 10 to 15 minutes and have a drink and a snack before you leave.",
          "Drink more than usual for the next two days.",
          "Keep the bandage on for a few hours; no heavy lifting or hard sport with that arm for 24 hours.",
          "If you feel faint, lie down and raise your legs; call the blood service if it does not pass.",
          "Tell the blood service if you fall ill in the two weeks after donating.",
        ]),
      Section(title: "Who may donate (\(region.rawValue))", lines: who),
      Section(
        title: "What defers a donor",
        lines: [
          "For some days: a tooth pulled (10 days), a vaccination (up to 30 days), a cold or fever.",
          "For some months: a tattoo, piercing or acupuncture, surgery, a pregnancy, travel to malaria areas.",
          "For good, or until a doctor decides: heart disease, hepatitis, HIV, some chronic illnesses.",
          "The questionnaire (vital donor questionnaire) checks these for you; the blood service decides.",
        ]),
    ]
  }
}
