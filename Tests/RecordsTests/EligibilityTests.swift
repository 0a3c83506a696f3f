import Core
import Foundation
import Storage
import Testing

@testable import Records

@Suite struct EligibilityTests {
  let calendar: Calendar = {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "Europe/Berlin")!
    return c
  }()

  func at(_ text: String) -> Date {
    let f = ISO8601.fields(from: text.count == 10 ? text + "T10:00" : text)!
    return calendar.date(
      from: DateComponents(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute))!
  }

  func done(_ day: String, _ kind: DonationKind = .wholeBlood) -> Donation {
    Donation(kind: kind, status: .completed, scheduledAt: nil, completedAt: at(day), place: "DRK")
  }

  /// A donor whose age and weight pass every region's limits (`sex` may stay unknown).
  func profile(_ sex: Sex?, _ region: Region = .de) -> Profile {
    var p = Profile()
    p.sex = sex
    p.region = region
    p.regionChosen = true
    p.birthDate = "1990-05-01"
    p.weightKg = 70
    return p
  }

  func verdict(
    _ history: [Donation], _ profile: Profile, kind: DonationKind = .wholeBlood, now: String,
    questionnaire: Questionnaire.Result? = nil
  ) -> Eligibility {
    Eligibility.evaluate(
      history: history, profile: profile, kind: kind, questionnaire: questionnaire, now: at(now), calendar: calendar)
  }

  let fourIn2026 = ["2026-01-01", "2026-03-01", "2026-05-01", "2026-07-01"]

  @Test func aWomanInGermanyWithFourDonationsWaitsForTheFirstToExpire() {
    let v = verdict(fourIn2026.map { done($0) }, profile(.female), now: "2026-09-01")
    #expect(!v.eligible)
    #expect(v.nextEligible == LocalDate("2027-01-01"))
    #expect(v.reasons.contains { $0.contains("at most 4") })
  }

  @Test func aManInGermanyWithTheSameDonationsOnlyWaitsTheInterval() {
    let history = fourIn2026.map { done($0) }
    let v = verdict(history, profile(.male), now: "2026-08-01")
    #expect(v.nextEligible == LocalDate("2026-08-26"))
    #expect(!v.eligible)
    #expect(verdict(history, profile(.male), now: "2026-08-26").eligible)
    #expect(!verdict(history, profile(.male), now: "2026-08-25").eligible)
  }

  @Test func unknownSexGetsTheStricterCap() {
    #expect(
      verdict(fourIn2026.map { done($0) }, profile(nil), now: "2026-09-01").nextEligible == LocalDate("2027-01-01"))
  }

  @Test(arguments: [
    (Region.de, Sex.female, "2026-03-27"), (.de, .male, "2026-03-27"), (.us, .female, "2026-03-27"),
    (.uk, .male, "2026-04-24"), (.uk, .female, "2026-05-22"),
  ])
  func eachRegionsWholeBloodInterval(region: Region, sex: Sex, next: String) {
    // 56 days after 30 Jan is 27 Mar; 12 weeks is 24 Apr, 16 weeks is 22 May.
    let v = verdict([done("2026-01-30")], profile(sex, region), now: "2026-02-10")
    #expect(v.nextEligible == LocalDate(next), "\(region) \(sex)")
  }

  @Test func crossKindWaits() {
    // Germany: plasma about 10 days after whole blood; US: whole blood 112 days after double red.
    #expect(
      verdict([done("2026-05-01")], profile(.female), kind: .plasma, now: "2026-05-02").nextEligible
        == LocalDate("2026-05-11"))
    #expect(
      verdict([done("2026-05-01", .doubleRed)], profile(.male, .us), now: "2026-05-02").nextEligible
        == LocalDate("2026-08-21"))
    // Plasma in Germany comes back after 2 days, but whole blood still waits its 56.
    let history = [done("2026-05-01"), done("2026-05-20", .plasma)]
    #expect(verdict(history, profile(.male), kind: .plasma, now: "2026-05-21").nextEligible == LocalDate("2026-05-22"))
    #expect(verdict(history, profile(.male), now: "2026-05-21").nextEligible == LocalDate("2026-06-26"))
  }

  @Test func usPlateletCapOfTwentyFour() {
    var day = LocalDate("2026-01-05")!
    var history: [Donation] = []
    for _ in 0..<24 {
      history.append(done(day.description, .platelets))
      day = day.adding(days: 7, in: calendar)
    }
    let v = verdict(history, profile(.male, .us), kind: .platelets, now: "2026-06-30")
    #expect(v.nextEligible == LocalDate("2027-01-05"))
  }

  @Test func futureAppointmentsDoNotCountAsDonations() {
    let booked = Donation(
      kind: .wholeBlood, status: .scheduled, scheduledAt: at("2026-09-01"), completedAt: nil, place: "x")
    let cancelled = Donation(
      kind: .wholeBlood, status: .cancelled, scheduledAt: at("2026-08-01"), completedAt: nil, place: "x")
    #expect(verdict([booked, cancelled], profile(.female), now: "2026-08-15").eligible)
  }

  @Test func ageAndWeightLimits() {
    var young = profile(.female)
    young.birthDate = "2009-03-15"
    let v = verdict([], young, now: "2026-12-01")
    #expect(v.nextEligible == LocalDate("2027-03-15"))
    var old = profile(.male)
    old.birthDate = "1950-01-01"
    #expect(verdict([], old, now: "2026-12-01").nextEligible == nil)
    var light = profile(.female)
    light.weightKg = 48
    let thin = verdict([], light, now: "2026-12-01")
    #expect(!thin.eligible && thin.nextEligible == nil)
    #expect(thin.reasons.contains { $0.contains("50 kg") })
  }

  @Test func aRecentQuestionnaireDeferralMovesTheDate() throws {
    var answers = Dictionary(uniqueKeysWithValues: Questionnaire.questions.map { ($0.id, false) })
    answers["vaccination"] = true
    let q = try Questionnaire.evaluate(answers, sex: .female, region: .de, now: at("2026-12-01"), calendar: calendar)
    let v = verdict([], profile(.female), now: "2026-12-05", questionnaire: q)
    #expect(v.nextEligible == LocalDate("2026-12-31"))
  }
}

extension EligibilityTests {
  func status(_ history: [Donation], now: String) -> DonorStatus {
    DonorStatus.evaluate(
      history: history, everDonated: history.contains { $0.status == .completed }, profile: profile(.female),
      questionnaire: nil, now: at(now), calendar: calendar)
  }

  @Test func statusCountsCalendarDaysToTheAppointmentAndTakesItsKind() {
    let booked = Donation(
      kind: .plasma, status: .scheduled, scheduledAt: at("2026-11-26T09:30"), completedAt: nil, place: "DRK")
    // 22:30 the evening before is one calendar day ahead, not zero 24-hour blocks.
    let s = status([booked, done("2026-10-01")], now: "2026-11-25T22:30")
    #expect(s.appointment == booked)
    #expect(s.daysLeft == 1)
    #expect(!s.overdue)
    #expect(s.kind == .plasma)
    #expect(
      s.nextEligible
        == verdict([done("2026-10-01")], profile(.female), kind: .plasma, now: "2026-11-25T22:30").nextEligible)
    #expect(!s.advice.isEmpty)
  }

  @Test func statusOfAPassedAppointmentIsOverdueWithoutAdviceForIt() {
    let booked = Donation(
      kind: .wholeBlood, status: .scheduled, scheduledAt: at("2026-11-20T09:30"), completedAt: nil, place: "DRK")
    let s = status([booked], now: "2026-11-22T09:00")
    #expect(s.overdue)
    #expect(s.daysLeft == -2)
    #expect(s.advice.isEmpty)
    #expect(status([], now: "2026-11-22T09:00").appointment == nil)
  }
}

@Suite struct QuestionnaireTests {
  let calendar: Calendar = {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "Europe/Berlin")!
    return c
  }()
  let now = ISO8601.date(from: "2026-12-01T09:00:00Z")!

  func allNo(_ sex: Sex?) -> [String: Bool] {
    Dictionary(uniqueKeysWithValues: Questionnaire.applicable(sex: sex).map { ($0.id, false) })
  }

  @Test func allNoIsEligible() throws {
    let r = try Questionnaire.evaluate(allNo(.female), sex: .female, region: .de, now: now, calendar: calendar)
    #expect(r.eligible && r.deferredUntil == nil && r.reasons.isEmpty)
  }

  @Test func onePermanentYesIsNotEligibleWithoutADate() throws {
    var a = allNo(.male)
    a["heart-disease"] = true
    let r = try Questionnaire.evaluate(a, sex: .male, region: .de, now: now, calendar: calendar)
    #expect(!r.eligible && r.permanentlyDeferred)
  }

  @Test func aTemporaryYesGivesItsEndDay() throws {
    var a = allNo(.male)
    a["tooth-extraction"] = true
    let r = try Questionnaire.evaluate(a, sex: .male, region: .de, now: now, calendar: calendar)
    #expect(!r.eligible)
    #expect(r.deferredUntil.map { LocalDate($0, in: calendar) } == LocalDate("2026-12-11"))
    a["vaccination"] = true
    let longer = try Questionnaire.evaluate(a, sex: .male, region: .de, now: now, calendar: calendar)
    #expect(longer.deferredUntil.map { LocalDate($0, in: calendar) } == LocalDate("2026-12-31"))
  }

  @Test func tattooDeferralDependsOnTheRegion() throws {
    var a = allNo(.male)
    a["tattoo-piercing"] = true
    let de = try Questionnaire.evaluate(a, sex: .male, region: .de, now: now, calendar: calendar)
    let us = try Questionnaire.evaluate(a, sex: .male, region: .us, now: now, calendar: calendar)
    #expect(de.deferredUntil! > us.deferredUntil!)
  }

  @Test func missingAndUnknownAnswersAreRefused() {
    var a = allNo(.female)
    a["pregnancy"] = nil
    #expect(throws: Questionnaire.AnswerError.missing(["pregnancy"])) {
      try Questionnaire.evaluate(a, sex: .female, region: .de, now: now, calendar: calendar)
    }
    var b = allNo(.female)
    b["favourite-colour"] = false
    #expect(throws: Questionnaire.AnswerError.unknown(["favourite-colour"])) {
      try Questionnaire.evaluate(b, sex: .female, region: .de, now: now, calendar: calendar)
    }
  }

  @Test func menAreNotAskedAboutPregnancy() throws {
    #expect(!Questionnaire.applicable(sex: .male).contains { $0.id == "pregnancy" })
    #expect(Questionnaire.applicable(sex: .female).contains { $0.id == "pregnancy" })
    #expect(Questionnaire.questions.count == 18)
    #expect(try Questionnaire.evaluate(allNo(.male), sex: .male, region: .de, now: now, calendar: calendar).eligible)
  }
}
