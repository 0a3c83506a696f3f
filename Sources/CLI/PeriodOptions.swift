import ArgumentParser
import Records

/// `--days N`, `--weeks N` or `--months N`: the periods a trend shows, 14 days unless one says.
struct PeriodOptions: ParsableArguments {
  @Option(help: "The last N days (default 14).") var days: Int?
  @Option(help: "The last N weeks (Monday to Sunday).") var weeks: Int?
  @Option(help: "The last N calendar months.") var months: Int?

  /// Whether one of them was given.
  var given: Bool { days != nil || weeks != nil || months != nil }

  func validate() throws {
    guard [days, weeks, months].compactMap({ $0 }).count <= 1 else {
      throw ValidationError("give one of --days, --weeks or --months")
    }
    if let n = days, !(1...3660).contains(n) { throw ValidationError("--days must be from 1 to 3660") }
    if let n = weeks, !(1...520).contains(n) { throw ValidationError("--weeks must be from 1 to 520") }
    if let n = months, !(1...120).contains(n) { throw ValidationError("--months must be from 1 to 120") }
  }

  var period: Trend.Period {
    if let weeks { return .weeks(weeks) }
    if let months { return .months(months) }
    return .days(days ?? 14)
  }
}
