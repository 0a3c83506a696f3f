import Foundation
import Replication

extension Donation {
  /// A donation as it is stored, synced and exported: one column per property, with the rules
  /// its values keep. The table (`DonationStore.donations`), the dataset, the row decoder and
  /// the names the CSV and FHIR use come from here.
  public static let shape = RecordShape<Donation>(
    blank: { Donation(id: "", kind: .wholeBlood, status: .scheduled, scheduledAt: nil, completedAt: nil, place: "") },
    [
      .text("id", \.id), .choice("kind", \.kind), .choice("status", \.status),
      // Donations began in the 1940s; an appointment is booked at most a year ahead.
      .instant("scheduled_at", \.scheduledAt, years: 1940...2200),
      .instant("completed_at", \.completedAt, years: 1940...2200),
      .text("place", \.place, rule: .text(maxBytes: 2000)), .text("notes", \.notes),
      // What the service measured: g/dL, ng/mL, mmHg, beats per minute.
      .number("hb_g_dl", \.vitals.haemoglobin, DonationVitals.haemoglobinRange),
      .number("ferritin_ng_ml", \.vitals.ferritin, DonationVitals.ferritinRange),
      .integer("bp_systolic", \.vitals.systolic, DonationVitals.systolicRange),
      .integer("bp_diastolic", \.vitals.diastolic, DonationVitals.diastolicRange),
      .integer("pulse_bpm", \.vitals.pulse, DonationVitals.pulseRange),
    ])
}

extension Questionnaire.Result {
  /// A questionnaire as taken, stored, synced and exported (`DonationStore.questionnaires`).
  public static let shape = RecordShape<Questionnaire.Result>(
    blank: {
      Questionnaire.Result(
        id: "", takenAt: Date(timeIntervalSince1970: 0), eligible: false, deferredUntil: nil, reasons: [], answers: [:])
    },
    [
      .text("id", \.id), .instant("taken_at", \.takenAt, years: 1940...2200),
      .flag("eligible", \.eligible, required: true),
      .instant("deferred_until", exact: \.deferredUntil, years: 1940...2300),
      // The reasons given and the answers, as JSON.
      .json("reasons", \.reasons, required: true), .json("answers", \.answers, required: true),
    ])

  package static let synced = shape.selection(Dataset.questionnaire.fields)
}
