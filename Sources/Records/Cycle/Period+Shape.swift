import Core
import Replication

extension Period {
  /// A period as it is stored, synced and exported (`PeriodStore.periods`, `Dataset.period`).
  /// A row whose first day no rule lets in (an older Vital's) is left out: every prediction and
  /// view reads the periods, and one bad row must not stop them.
  public static let shape = RecordShape<Period>(
    blank: { Period(id: "", start: LocalDate(ordinal: 0), end: nil) },
    [
      .text("id", \.id), .day("start", \.start, years: 1900...2200), .day("end", \.end, years: 1900...2200),
      // Yes: the cycle that starts here is left out of the statistics.
      .flag("excluded", \.excluded),
    ])

  package static let synced = shape.selection(Dataset.period.fields)
  static let logged = shape.selection(of: [\.start, \.end])
}

extension CyclePause {
  /// A pause as it is stored, synced and exported (`PeriodStore.pauses`, `Dataset.cyclePause`).
  public static let shape = RecordShape<CyclePause>(
    blank: { CyclePause(id: "", from: LocalDate(ordinal: 0), to: nil, reason: .other) },
    [
      .text("id", \.id), .day("start", \.from, years: 1900...2200, onFault: .fails),
      .day("end", \.to, years: 1900...2200), .choice("reason", \.reason),
    ])

  package static let synced = shape.selection(Dataset.cyclePause.fields)
}

extension CycleNote {
  /// A day's note as it is stored, synced and exported (`PeriodStore.notes`, `Dataset.cycleNote`).
  /// A row whose day does not read is left out.
  public static let shape = RecordShape<CycleNote>(
    blank: { CycleNote(date: LocalDate(ordinal: 0)) },
    [
      .derived("id", \.id), .day("date", \.date, years: 1900...2200), .choice("flow", \.flow),
      // Waking temperature in °C, when it was taken (HH:MM), and whether it is left out.
      .number("temperature", \.temperature, CycleNote.temperatures),
      .text("temperature_time", \.temperatureTime, rule: .timeOfDay),
      .flag("temperature_excluded", \.temperatureExcluded), .choice("mucus", \.mucus),
      // JSON arrays of the words given; none is NULL.
      .json("pain", \.pain, required: false, empty: { $0.isEmpty }),
      .json("mood", \.mood, required: false, empty: { $0.isEmpty }),
      .choice("sex", \.sex), .text("text", \.text, rule: .text(maxBytes: 1 << 20)),
    ])

  package static let synced = shape.selection(Dataset.cycleNote.fields)
}
