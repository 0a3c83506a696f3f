import Replication
import Storage

extension DonationStore {
  public static let donations = Table(
    "donation", comment: "Appointments, completed donations and cancelled appointments.",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("kind", "NOT NULL CHECK (kind IN ('whole-blood', 'plasma', 'platelets', 'double-red'))"),
      .text("status", "NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled'))"),
      .text("scheduled_at"), .text("completed_at"), .text("place", "NOT NULL"), .text("notes"),
      .text("updated_at", "NOT NULL"),
      // What the service measured: g/dL, ng/mL, mmHg, beats per minute.
      .real("hb_g_dl"), .real("ferritin_ng_ml"), .integer("bp_systolic"), .integer("bp_diastolic"),
      .integer("pulse_bpm"),
    ],
    constraints: [
      "PRIMARY KEY (account_id, id)",
      "CHECK (status <> 'completed' OR completed_at IS NOT NULL)",
      "CHECK (status <> 'scheduled' OR scheduled_at IS NOT NULL)",
    ],
    // In the order history and export read, so neither sorts.
    indexes: ["donation_account_date": "account_id, coalesce(completed_at, scheduled_at) DESC, id"])

  public static let questionnaires = Table(
    "questionnaire", comment: "Eligibility questionnaires as taken; reasons and answers are JSON.",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("taken_at", "NOT NULL"), .integer("eligible", "NOT NULL CHECK (eligible IN (0, 1))"),
      .text("deferred_until"), .text("reasons", "NOT NULL"), .text("answers", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], indexes: ["questionnaire_account_taken": "account_id, taken_at"])
}

extension Dataset {
  public static let donation = Dataset(
    DonationStore.donations, stamp: "updated_at",
    rules: [
      "kind": .oneOf(DonationKind.allCases.map(\.rawValue)),
      "status": .oneOf(DonationStatus.allCases.map(\.rawValue)),
      // Donations began in the 1940s; an appointment is booked at most a year ahead.
      "scheduled_at": .instant(years: 1940...2200), "completed_at": .instant(years: 1940...2200),
      "place": .text(maxBytes: 2000),
      "hb_g_dl": .number(DonationVitals.haemoglobinRange), "ferritin_ng_ml": .number(DonationVitals.ferritinRange),
      "bp_systolic": .integer(
        Int64(DonationVitals.systolicRange.lowerBound)...Int64(DonationVitals.systolicRange.upperBound)),
      "bp_diastolic": .integer(
        Int64(DonationVitals.diastolicRange.lowerBound)...Int64(DonationVitals.diastolicRange.upperBound)),
      "pulse_bpm": .integer(Int64(DonationVitals.pulseRange.lowerBound)...Int64(DonationVitals.pulseRange.upperBound)),
    ],
    recordRules: [
      .requiredWhen(field: "status", equals: "completed", required: "completed_at"),
      .requiredWhen(field: "status", equals: "scheduled", required: "scheduled_at"),
    ])
  public static let questionnaire = Dataset(
    DonationStore.questionnaires,
    rules: [
      "taken_at": .instant(years: 1940...2200), "eligible": .flag, "deferred_until": .instant(years: 1940...2300),
      "reasons": .json, "answers": .json,
    ])
}
