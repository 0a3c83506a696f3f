import Records

/// A vital's trend as text: a row per period with its readings' count, lowest, average and
/// highest, and that range drawn on one scale for all rows (`●` the average); blood pressure
/// draws its systolic and diastolic ranges on the same line.
struct VitalsChart {
  let kind: VitalKind
  let rows: [HealthStore.VitalsRow]
  let width: Int

  var text: String {
    let stats = rows.flatMap { [$0.value, $0.diastolic].compactMap { $0 } }
    guard !stats.isEmpty else { return "" }
    let low = stats.map(\.minimum).min()!
    let high = stats.map(\.maximum).max()!
    let columns = max(10, min(60, width - 52))
    // A blood pressure's lowest systolic and lowest diastolic are seldom one reading: each
    // number's range is shown apart, never as a `low` reading nobody measured.
    let header =
      kind == .bloodPressure
      ? "period      readings      avg systolic diastolic  \(kind.unit)"
      : "period      readings      low      avg     high  \(kind.unit)"
    let lines = [header] + rows.map { row in line(row, low: low, high: high, columns: columns) }
    return (lines + key(low: low, high: high, columns: columns)).joined(separator: "\n")
  }

  /// The drawing's scale under its ends, and what its marks mean.
  func key(low: Double, high: Double, columns: Int) -> [String] {
    // Where the bar begins: the label, the count and the three figures.
    let indent = String(repeating: " ", count: 10 + 10 + 1 + 27 + 2)
    let (lowest, highest) = (Self.number(low, nil, kind), Self.number(high, nil, kind))
    var lines: [String] = []
    if lowest.count + highest.count + 2 <= columns {
      let gap = String(repeating: " ", count: columns - lowest.count - highest.count)
      lines.append(indent + " " + lowest + gap + highest + " \(kind.unit)")
    }
    let pair = kind == .bloodPressure ? "; left diastolic, right systolic" : ""
    lines.append(indent + " ● average, ─ lowest to highest" + pair)
    return lines
  }

  func line(_ row: HealthStore.VitalsRow, low: Double, high: Double, columns: Int) -> String {
    let label = row.label.padding(toLength: 10, withPad: " ", startingAt: 0)
    guard let value = row.value else { return label + "  no data" }
    let cell = { (text: String) in String(repeating: " ", count: max(0, 9 - text.count)) + text }
    let span = { (s: HealthStore.VitalStats) in
      let (low, high) = (Self.number(s.minimum, nil, kind), Self.number(s.maximum, nil, kind))
      return low == high ? low : "\(low)–\(high)"
    }
    let figures =
      if kind == .bloodPressure, let diastolic = row.diastolic {
        cell(Self.number(value.average, diastolic.average, kind)) + cell(span(value)) + cell(span(diastolic))
      } else {
        cell(Self.number(value.minimum, nil, kind)) + cell(Self.number(value.average, nil, kind))
          + cell(Self.number(value.maximum, nil, kind))
      }
    var bar = Array(repeating: Character(" "), count: columns)
    let position = { (v: Double) in high > low ? Int(((v - low) / (high - low) * Double(columns - 1)).rounded()) : 0 }
    for range in [row.value, row.diastolic].compactMap({ $0 }) {
      for i in position(range.minimum)...position(range.maximum) { bar[i] = "─" }
      bar[position(range.average)] = "●"
    }
    let count = String(value.count)
    return label + String(repeating: " ", count: max(0, 10 - count.count)) + count + " " + figures + "  |"
      + String(bar) + "|"
  }

  /// `72`, `63.4`, `128/82`: whole numbers where a tenth means nothing to the reader.
  static func number(_ value: Double, _ diastolic: Double?, _ kind: VitalKind) -> String {
    let one = { (v: Double) -> String in
      switch kind {
      case .weight, .hrv: return String(format: "%.1f", v)
      default: return String(Int(v.rounded()))
      }
    }
    return diastolic.map { "\(one(value))/\(one($0))" } ?? one(value)
  }
}
