import Replication
import Storage

extension LabStore {
  public static let results = Table(
    "lab_result",
    comment: """
      Lab results and measurements by hand: value in the test's canonical unit (lab-tests.json),
      recorded/recorded_unit as written when another unit, the laboratory's own range if given.
      """,
    LabResult.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"],
    indexes: ["lab_result_test_at": "account_id, test, at"])
}

extension Dataset {
  public static let labResult = Dataset(LabStore.results, rules: LabResult.shape.rules)
}
