import Core

/// What a day of the cycle calendar shows.
public enum CycleMark: String, CaseIterable, Sendable {
  case period, predicted, fertile, ovulation
  /// Infertile by the sympto-thermal rules (confirmed, not predicted).
  case infertile

  /// The letter used where colour is not available.
  public var letter: Character {
    switch self {
    case .period: return "P"
    case .predicted: return "p"
    case .fertile: return "f"
    case .ovulation: return "O"
    case .infertile: return "i"
    }
  }
}

public enum CycleCalendar {
  /// The marks of every day of `month` (`year`, `month`) from logged periods and predictions;
  /// `infertileFrom` (the sympto-thermal result of the cycle under way) marks its days up to the
  /// next period, predicted or logged.
  public static func marks(
    year: Int, month: Int, periods: [Period], prediction: CyclePrediction?, infertileFrom: LocalDate? = nil,
    today: LocalDate
  ) -> [(LocalDate, [CycleMark])] {
    let nextStart = prediction?.next.first { $0.start > (infertileFrom ?? today) }?.start
    let infertile = infertileFrom.map { $0...max($0, (nextStart ?? today.adding(days: 1)).adding(days: -1)) }
    let first = LocalDate(year: year, month: month, day: 1)!
    let days = (0..<31).map { first.adding(days: $0) }.filter { $0.month == month }
    return days.map { day in
      var marks: [CycleMark] = []
      if periods.contains(where: { $0.days(today: today).contains(day) }) { marks.append(.period) }
      for next in prediction?.next ?? [] {
        if (next.start...next.end).contains(day), !marks.contains(.period) { marks.append(.predicted) }
        if next.fertileWindow.contains(day) { marks.append(.fertile) }
        if next.ovulation == day { marks.append(.ovulation) }
      }
      if let infertile, infertile.contains(day), !marks.contains(.period) {
        marks.removeAll { $0 == .fertile || $0 == .ovulation }
        marks.append(.infertile)
      }
      return (day, marks)
    }
  }
}

extension PeriodStore {
  /// The marks of every day of `month`, as `vital cycle calendar` and the cycle page draw it:
  /// enough predictions to reach past the month, and the infertile days the cycle under way
  /// has confirmed.
  public func calendar(year: Int, month: Int) throws -> [(LocalDate, [CycleMark])] {
    let today = LocalDate(now, in: calendar)
    let periods = try list()
    let monthEnd = LocalDate(year: year, month: month, day: 1)!.adding(days: 40)
    let count = max(1, min(24, (today.days(to: monthEnd) / 20) + 2))
    let prediction = periods.isEmpty ? nil : try predict(count: count)
    return CycleCalendar.marks(
      year: year, month: month, periods: periods, prediction: prediction,
      infertileFrom: try currentSigns()?.signs.infertileFrom, today: today)
  }
}
