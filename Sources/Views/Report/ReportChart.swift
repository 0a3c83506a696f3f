import Records

/// The report's charts for pages that draw one on their own (`vital web`): the same SVG
/// figure the report shows, with its title, axes and words, or nil when there is nothing to
/// draw. Fill only the parts of `ReportData` the chart reads.
public enum ReportChart {
  /// Reads `donations` (completed, oldest first), `nextEligible`, `minimumHaemoglobin`,
  /// `profile`, `to` and `today`.
  public static func donations(_ data: ReportData) -> String? { ReportCharts.donations(data)?.svg }

  /// Reads `adherence` (`MedicationStore.adherence` over the days to draw).
  public static func adherence(_ data: ReportData) -> String? { ReportCharts.adherence(data)?.svg }

  /// Reads `periods` and `nextPeriod` (`loadCycle`).
  public static func cycles(_ data: ReportData) -> String? { ReportCharts.cycles(data)?.svg }

  /// Reads `temperatures` (`loadCycle`).
  public static func temperatures(_ data: ReportData) -> String? { ReportCharts.temperatures(data)?.svg }

  /// A health trend's periods as bars against their goals (`GoalStore.trend`).
  public static func trend(_ trend: Trend) -> String? { ReportCharts.trend(trend)?.svg }
}
