import Core
import Foundation

/// Whether a donor may give `kind` now, the first day they may, and why.
public struct Eligibility: Equatable, Sendable {
  public var eligible: Bool
  /// The first day a donation of this kind is allowed; nil when no date can be given (a
  /// permanent deferral, an age or weight limit).
  public var nextEligible: LocalDate?
  public var reasons: [String]
  /// Facts the rules need that the profile lacks (`region`, `sex`, `birth date`, `weight`):
  /// until they are known the answer is not yes, whatever the dates say.
  public var missing: [String] = []
}

extension Eligibility {
  /// Pure: history, profile, the region's rules, the latest questionnaire and the clock in,
  /// a verdict out. Only completed donations in the past count; appointments do not.
  ///
  /// Only the last 12 months of history matter (no wait is longer); `everDonated` tells about
  /// older donations when `history` holds just the recent ones (`DonationStore.recentHistory`).
  public static func evaluate(
    history: [Donation], everDonated: Bool? = nil, profile: Profile, kind: DonationKind,
    questionnaire: Questionnaire.Result?, now: Date, calendar: Calendar
  ) -> Eligibility {
    let rules = DonationRules.forRegion(profile.region)
    let today = LocalDate(now, in: calendar)
    let sex = profile.sex
    let region = profile.region.rawValue
    let done = history.compactMap { d -> (kind: DonationKind, day: LocalDate)? in
      guard d.status == .completed, let at = d.completedAt, at <= now else { return nil }
      return (d.kind, LocalDate(at, in: calendar))
    }
    var candidate = today
    var reasons: [String] = []
    var blocked = false

    // Waits after each earlier donation; the latest end binds.
    var binding: (day: LocalDate, text: String)?
    for previous in done {
      let wait = rules.wait(after: previous.kind, before: kind, sex: sex)
      let end = previous.day.adding(days: wait, in: calendar)
      if end > today && end > (binding?.day ?? today) {
        binding = (
          end, "\(previous.kind.label) on \(previous.day): \(wait) days must pass before \(kind.label) (\(region))"
        )
      }
    }
    if let binding {
      candidate = binding.day
      reasons.append(binding.text)
    }

    // At most `cap` donations of this kind in any 12 months: wait for the oldest to age out.
    if let cap = rules.cap(for: kind, sex: sex) {
      let days = done.filter { $0.kind == kind }.map(\.day).sorted()
      while true {
        let windowStart = candidate.adding(months: -12, in: calendar)
        let counted = days.filter { $0 > windowStart && $0 <= candidate }
        guard counted.count >= cap else { break }
        candidate = counted[counted.count - cap].adding(months: 12, in: calendar)
        let who =
          kind == .wholeBlood && profile.region == .de
          ? (sex.map { " for \($0.rawValue) donors" } ?? " (set your sex in the profile; the stricter limit applies)")
          : ""
        let text =
          "at most \(cap) \(kind.label) donations in 12 months\(who) (\(region)); the next is possible on \(candidate)"
        if !reasons.contains(text) { reasons.append(text) }
      }
    }

    if let birth = profile.birthDate.flatMap(LocalDate.init) {
      let minimumDay = birth.adding(months: 12 * rules.minimumAge, in: calendar)
      if minimumDay > candidate {
        candidate = minimumDay
        reasons.append("donors must be at least \(rules.minimumAge) (\(region)); you may donate from \(minimumDay)")
      }
      let age = birth.years(to: candidate)
      if age > rules.maximumAge {
        blocked = true
        reasons.append(
          "donors may be at most \(rules.maximumAge) years old (\(region)); ask the blood service about exceptions")
      } else if !(everDonated ?? !done.isEmpty) && age > rules.maximumFirstDonationAge {
        blocked = true
        reasons.append(
          "a first donation is accepted up to age \(rules.maximumFirstDonationAge) (\(region)); ask the blood service")
      }
    }

    if let weight = profile.weightKg {
      let minimum =
        kind == .doubleRed
        ? rules.doubleRedMinimumWeightKg[sex ?? .female] ?? rules.minimumWeightKg : rules.minimumWeightKg
      if weight < minimum {
        blocked = true
        reasons.append("\(kind.label) donors must weigh at least \(minimum.formatted()) kg (\(region))")
      }
    }

    if let q = questionnaire, !q.eligible, calendar.dateComponents([.day], from: q.takenAt, to: now).day! <= 30 {
      if let until = q.deferredUntil {
        let day = LocalDate(until, in: calendar)
        if day > candidate { candidate = day }
        reasons.append("questionnaire of \(LocalDate(q.takenAt, in: calendar)): deferred until \(day)")
      } else {
        blocked = true
        reasons.append(
          "questionnaire of \(LocalDate(q.takenAt, in: calendar)): a doctor at the blood service has to decide")
      }
    }

    let next = blocked ? nil : candidate
    let missing = profile.missingForDonation
    return Eligibility(
      eligible: missing.isEmpty && (next.map { $0 <= today } ?? false), nextEligible: next, reasons: reasons,
      missing: missing)
  }
}

extension Eligibility {
  /// The verdict with the donor app's period rule laid over it: no donation within
  /// `DonationStore.daysAfterPeriod` days after a period started, so "today" is not yes then,
  /// and the next day is the first after that stretch.
  /// `periodStarts` are the days periods began, oldest first.
  public func afterPeriods(starting periodStarts: [LocalDate], today: LocalDate) -> Eligibility {
    guard let start = DonationStore.periodBlocking(today, periodStarts), let next = nextEligible else { return self }
    let free = start.adding(days: DonationStore.daysAfterPeriod + 1)
    var verdict = self
    if free > next { verdict.nextEligible = free }
    verdict.eligible = false
    verdict.reasons.append(
      "the period from \(start) began less than \(DonationStore.daysAfterPeriod + 1) days ago: not before \(free)"
    )
    return verdict
  }
}
