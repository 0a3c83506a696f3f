import Foundation
import Replication
import Storage

/// Stored questionnaire results: listed, shown and deleted (a result is the answers' verdict,
/// so it is corrected by taking the questionnaire again, not edited).
extension DonationStore {
  static let questionnaireLookup = RecordLookup(
    kind: "questionnaire result", listCommand: "vital donor questionnaire list", table: "questionnaire")

  /// Every result, newest first.
  public func questionnaireResults() throws -> [Questionnaire.Result] {
    try db.query(
      "SELECT \(Self.questionnaires.list()) FROM questionnaire WHERE account_id = ? ORDER BY taken_at DESC, id",
      account.id, row: Self.questionnaire)
  }

  public func questionnaireResult(_ idOrPrefix: String) throws -> Questionnaire.Result {
    let id = try Self.questionnaireLookup.id(idOrPrefix, account: account.id, in: db)
    guard
      let result = try db.queryFirst(
        "SELECT \(Self.questionnaires.list()) FROM questionnaire WHERE account_id = ? AND id = ?", account.id, id,
        row: Self.questionnaire)
    else {
      throw RecordLookup.Failure.notFound(
        kind: "questionnaire result", id: idOrPrefix, listCommand: "vital donor questionnaire list")
    }
    return result
  }

  /// Deletes one result: booking then goes by the result before it, if any is recent.
  @discardableResult
  public func deleteQuestionnaireResult(_ idOrPrefix: String) throws -> Questionnaire.Result {
    let result = try questionnaireResult(idOrPrefix)
    try replica.delete(.questionnaire, id: result.id)
    return result
  }
}
