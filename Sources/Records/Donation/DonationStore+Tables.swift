import Replication
import Storage

extension DonationStore {
  /// The donation's columns (`Donation.shape`), with its account and the time of its last write.
  public static let donations = Table(
    "donation", comment: "Appointments, completed donations and cancelled appointments.",
    Donation.shape.accountTableColumns(adding: [(after: "notes", .text("updated_at", "NOT NULL"))]),
    constraints: [
      "PRIMARY KEY (account_id, id)",
      "CHECK (status <> 'completed' OR completed_at IS NOT NULL)",
      "CHECK (status <> 'scheduled' OR scheduled_at IS NOT NULL)",
    ],
    // In the order history and export read, so neither sorts.
    indexes: ["donation_account_date": "account_id, coalesce(completed_at, scheduled_at) DESC, id"])

  public static let questionnaires = Table(
    "questionnaire", comment: "Eligibility questionnaires as taken; reasons and answers are JSON.",
    Questionnaire.Result.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["questionnaire_account_taken": "account_id, taken_at"])
}

extension Dataset {
  public static let donation = Dataset(
    DonationStore.donations, stamp: "updated_at", rules: Donation.shape.rules,
    recordRules: [
      .requiredWhen(field: "status", equals: "completed", required: "completed_at"),
      .requiredWhen(field: "status", equals: "scheduled", required: "scheduled_at"),
    ])
  public static let questionnaire = Dataset(
    DonationStore.questionnaires, rules: Questionnaire.Result.shape.rules)
}
