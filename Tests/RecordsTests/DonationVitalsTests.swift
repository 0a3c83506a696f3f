import Foundation
import Replication
import Testing

@testable import Records

@Suite struct DonationVitalsTests {
  @Test func bulkValuesFollowTheTablesFieldOrder() {
    let d = Donation(
      kind: .plasma, status: .completed, scheduledAt: nil, completedAt: Date(timeIntervalSince1970: 1_700_000_000),
      place: "DRK", notes: "n",
      vitals: DonationVitals(haemoglobin: 13.1, ferritin: 30, systolic: 120, diastolic: 80, pulse: 64))
    #expect(DonationStore.fields(d)["hb_g_dl"] == .real(13.1))
    #expect(DonationStore.fields(d)["pulse_bpm"] == .integer(64))
    #expect(DonationStore.fields(d)["place"] == .text("DRK"))
    #expect(DonationStore.values(d) == Dataset.donation.fields.map { DonationStore.fields(d)[$0]! })
  }

  @Test func millimolesBecomeGramsPerDecilitreToTheTenth() {
    #expect(DonationVitals.haemoglobin(millimolesPerLitre: 8.7) == 14.0)
    #expect(DonationVitals.haemoglobin(millimolesPerLitre: 7.8) == 12.6)
  }

  @Test func rangesAndHalfPressuresAreRefused() throws {
    #expect(throws: VitalsError.halfPressure) { try DonationVitals(systolic: 120).validated() }
    #expect(throws: VitalsError.self) { try DonationVitals(systolic: 80, diastolic: 90).validated() }
    #expect(throws: VitalsError.pressureFormat) { try DonationVitals.pressure("120-80") }
    #expect(try DonationVitals.pressure(" 118 / 76 ") == (118, 76))
    #expect(try DonationVitals(haemoglobin: 13).validated().haemoglobin == 13)
  }

  @Test func theHistoryTakesTheStricterMinimumWithoutASex() {
    let day: (Int) -> Date = { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400) }
    let donations = [
      Donation(
        kind: .wholeBlood, status: .completed, scheduledAt: nil, completedAt: day(200), place: "A",
        vitals: DonationVitals(haemoglobin: 13.2)),
      Donation(
        kind: .wholeBlood, status: .completed, scheduledAt: nil, completedAt: day(0), place: "A",
        vitals: DonationVitals(haemoglobin: 14.0)),
      Donation(kind: .wholeBlood, status: .scheduled, scheduledAt: day(300), completedAt: nil, place: "A"),
    ]
    let history = VitalsHistory(donations: donations, rules: .forRegion(.de), sex: nil)
    #expect(history.minimumHaemoglobin == 13.5)
    #expect(history.rows.map(\.donation.completedAt) == [day(0), day(200)], "oldest first, measured only")
    #expect(history.rows.map(\.belowMinimum) == [false, true])
    #expect(history.rows.last?.haemoglobinChange == -0.8)
    // 0.8 g/dL down over 200 days is about 1.5 g/dL a year.
    #expect(history.haemoglobinPerYear == -1.5)
  }

  @Test func figuresAreReadAsTypedWithADecimalCommaToo() throws {
    let vitals = try DonationVitals.Entry(hb: "14,2", ferritin: " 38 ", bp: "120/80", pulse: "66").parsed()
    #expect(vitals == DonationVitals(haemoglobin: 14.2, ferritin: 38, systolic: 120, diastolic: 80, pulse: 66))
    #expect(throws: DonationVitals.EntryError.notANumber("--hb")) { try DonationVitals.Entry(hb: "14,2,1").parsed() }
    #expect(throws: DonationVitals.EntryError.notWhole("--pulse")) { try DonationVitals.Entry(pulse: "66,5").parsed() }
    #expect(throws: DonationVitals.EntryError.haemoglobinTwice) {
      try DonationVitals.Entry(hb: "", hbMmol: "8").parsed()
    }
    #expect(DonationVitals.Entry(hb: "", bp: "").cleared == ["hb", "bp"], "'' removes a figure on an edit")
  }
}
