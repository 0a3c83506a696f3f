import Replication
import Storage

extension PeriodStore {
  public static let periods = Table(
    "period", comment: "Logged periods; an ongoing one has no end.",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("start", "NOT NULL"), .text("end"),
    ], constraints: ["PRIMARY KEY (account_id, id)", #"CHECK ("end" IS NULL OR "end" >= start)"#],
    indexes: ["period_account_start": "account_id, start"])
}

extension Dataset {
  public static let period = Dataset(PeriodStore.periods)
}
