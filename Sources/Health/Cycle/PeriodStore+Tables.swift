import Replication
import Storage

extension PeriodStore {
  public static let periods = Table(
    "period", comment: "Logged periods; an ongoing one has no end.",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("start", "NOT NULL"), .text("end"),
      // 1: the cycle that starts here is left out of the statistics.
      .integer("excluded", "NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1))"),
    ], constraints: ["PRIMARY KEY (account_id, id)", #"CHECK ("end" IS NULL OR "end" >= start)"#],
    indexes: ["period_account_start": "account_id, start"])

  public static let notes = Table(
    "cycle_note",
    comment:
      "What a person noted about a day of the cycle. The id is the day, so devices noting one day write one record.",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("date", "NOT NULL"),
      .text("flow", "CHECK (flow IN ('spotting', 'light', 'medium', 'heavy'))"),
      // Waking temperature in °C, when it was taken (HH:MM), and whether it is left out.
      .real("temperature"), .text("temperature_time"),
      .integer("temperature_excluded", "NOT NULL DEFAULT 0 CHECK (temperature_excluded IN (0, 1))"),
      .text("mucus", "CHECK (mucus IN ('dry', 'moist', 'sticky', 'creamy', 'eggwhite'))"),
      // JSON arrays of the words given.
      .text("pain"), .text("mood"),
      .text("sex", "CHECK (sex IN ('protected', 'unprotected'))"), .text("text"),
    ], constraints: ["PRIMARY KEY (account_id, id)"], withoutRowID: true,
    indexes: ["cycle_note_account_date": "account_id, date"])

  public static let pauses = Table(
    "cycle_pause", comment: "Stretches without predictions (pregnancy, contraception, ...); an open one has no end.",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("start", "NOT NULL"), .text("end"),
      .text("reason", "NOT NULL CHECK (reason IN ('pregnancy', 'breastfeeding', 'contraception', 'other'))"),
    ], constraints: ["PRIMARY KEY (account_id, id)", #"CHECK ("end" IS NULL OR "end" >= start)"#])
}

extension Dataset {
  public static let period = Dataset(
    PeriodStore.periods,
    rules: ["start": .day(years: 1900...2200), "end": .day(years: 1900...2200), "excluded": .flag],
    recordRules: [.order(earlier: "start", later: "end")])
  public static let cycleNote = Dataset(
    PeriodStore.notes,
    rules: [
      "date": .day(years: 1900...2200), "flow": .oneOf(CycleNote.Flow.allCases.map(\.rawValue)),
      "temperature": .number(CycleNote.temperatures.lowerBound...CycleNote.temperatures.upperBound),
      "temperature_time": .timeOfDay, "temperature_excluded": .flag,
      "mucus": .oneOf(CycleNote.Mucus.allCases.map(\.rawValue)), "pain": .json, "mood": .json,
      "sex": .oneOf(CycleNote.Sex.allCases.map(\.rawValue)), "text": .text(maxBytes: 1 << 20),
    ])
  public static let cyclePause = Dataset(
    PeriodStore.pauses,
    rules: [
      "start": .day(years: 1900...2200), "end": .day(years: 1900...2200),
      "reason": .oneOf(CyclePause.Reason.allCases.map(\.rawValue)),
    ], recordRules: [.order(earlier: "start", later: "end")])
}
