import Replication
import Storage

extension PeriodStore {
  public static let periods = Table(
    "period", comment: "Logged periods; an ongoing one has no end.",
    Period.shape.accountTableColumns(),
    constraints: ["PRIMARY KEY (account_id, id)", #"CHECK ("end" IS NULL OR "end" >= start)"#],
    indexes: ["period_account_start": "account_id, start"])

  public static let notes = Table(
    "cycle_note",
    comment:
      "What a person noted about a day of the cycle. The id is the day, so devices noting one day write one record.",
    CycleNote.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"], withoutRowID: true,
    indexes: ["cycle_note_account_date": "account_id, date"])

  public static let pauses = Table(
    "cycle_pause", comment: "Stretches without predictions (pregnancy, contraception, ...); an open one has no end.",
    CyclePause.shape.accountTableColumns(),
    constraints: ["PRIMARY KEY (account_id, id)", #"CHECK ("end" IS NULL OR "end" >= start)"#])
}

extension Dataset {
  public static let period = Dataset(
    PeriodStore.periods, rules: Period.shape.rules,
    recordRules: [.order(earlier: "start", later: "end")])
  public static let cycleNote = Dataset(
    PeriodStore.notes, rules: CycleNote.shape.rules)
  public static let cyclePause = Dataset(
    PeriodStore.pauses, rules: CyclePause.shape.rules, recordRules: [.order(earlier: "start", later: "end")])
}
