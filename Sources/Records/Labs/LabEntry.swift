import Foundation

/// A result as a person writes it (`vital labs add ferritin 35 ng/mL --range 15-150`, a CSV row),
/// read against the catalogue into a `LabResult`: the unit checked and converted, the value
/// checked against what any body can have.
public struct LabEntry: Sendable {
  public var test: String
  public var value: String
  public var unit: String?
  public var at: Date
  public var lab: String?
  public var range: String?
  public var note: String?

  public init(
    test: String, value: String, unit: String? = nil, at: Date, lab: String? = nil, range: String? = nil,
    note: String? = nil
  ) {
    self.test = test
    self.value = value
    self.unit = unit
    self.at = at
    self.lab = lab
    self.range = range
    self.note = note
  }

  /// The result this entry says, with `id`; `force` keeps a value outside the plausible range.
  public func result(id: String, catalogue: LabCatalogue, force: Bool = false) throws -> LabResult {
    let test = try catalogue.require(test)
    let unit = self.unit?.withoutSpaces.nilIfEmpty
    // Units that are one number (ferritin's ng/mL and µg/L) need not be named.
    if unit == nil, !test.units.allSatisfy({ $0.factor == 1 && ($0.offset ?? 0) == 0 }) {
      throw LabError.unitNeeded(test: test.id, units: test.unitNames)
    }
    let conversion = try unit.map {
      guard let conversion = catalogue.conversion($0, of: test) else {
        throw LabError.unknownUnit(String($0.prefix(20)), test: test.id, units: test.unitNames)
      }
      return conversion
    }
    let convert = { (value: Double) in conversion.map { value * $0.factor + $0.offset } ?? value }
    let numbers = try Self.numbers(value, pair: test.isPair, test: test.id)
    let values = numbers.map(convert)
    if values.count == 2, values[0] <= values[1] { throw LabError.pairOrder(test: test.id) }
    for (written, value) in zip(numbers, values) {
      // Below zero is no measurement at all, forced or not.
      guard value >= 0 || test.plausible[0] < 0 else {
        throw LabError.badValue(Self.text(written), test: test.id)
      }
      guard force || (value >= test.plausible[0] && value <= test.plausible[1]) else {
        throw LabError.implausible(
          test: test.id, value: Self.text(written) + (unit.map { " " + $0 } ?? ""),
          low: Self.text(test.plausible[0]), high: Self.text(test.plausible[1]) + " " + test.displayUnit)
      }
    }
    var result = LabResult(
      id: id, test: test.id, value: values[0], second: values.count > 1 ? values[1] : nil, at: at,
      lab: lab?.withoutSpaces.nilIfEmpty,
      note: note?.withoutSpaces.nilIfEmpty)
    if !test.isPair, let unit, conversion?.isCanonical == false {
      (result.recorded, result.recordedUnit) = (numbers[0], unit)
    }
    if let range = range?.withoutSpaces.nilIfEmpty {
      let (low, high) = try Self.range(range)
      result.rangeLow = low.map(convert)
      result.rangeHigh = high.map(convert)
    }
    return result
  }

  /// `12.5`, `12,5`, or `128/82` for a pair; finite numbers only.
  static func numbers(_ text: String, pair: Bool, test: String) throws -> [Double] {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { String($0).withoutSpaces }
    guard parts.count == (pair ? 2 : 1) else {
      throw pair ? LabError.pairNeeded(test: test) : LabError.badValue(String(text.prefix(20)), test: test)
    }
    return try parts.map { part in
      // A decimal comma (12,5) is read as a point; 1,234 could be a thousand as well.
      if let comma = part.firstIndex(of: ","),
        part.filter({ $0 == "," || $0 == "." }).count > 1
          || part[part.index(after: comma)...].count == 3 && part[part.index(after: comma)...].allSatisfy(\.isNumber)
      {
        throw LabError.ambiguousComma(String(part.prefix(20)))
      }
      let part = part.withDecimalPoint
      // `nan` and `inf` are no values (Double reads them); no figure holds an n.
      guard let number = Double(part), number.isFinite, !part.utf8.contains(where: { $0 | 0x20 == 0x6E }) else {
        throw LabError.badValue(String(text.prefix(20)), test: test)
      }
      return number
    }
  }

  /// `3.5-5.1`, `<5`, `>40`: a range's two ends, either open.
  static func range(_ text: String) throws -> (Double?, Double?) {
    let number = { (part: Substring) -> Double? in
      Double(String(part).withoutSpaces.withDecimalPoint).flatMap {
        $0.isFinite ? $0 : nil
      }
    }
    if let first = text.first, first == "<" || first == ">" {
      let rest = text.dropFirst().drop { $0 == "=" }
      guard let value = number(rest) else { throw LabError.badRange(String(text.prefix(20))) }
      return first == "<" ? (nil, value) : (value, nil)
    }
    // The dash between the ends, not a minus of the first.
    guard let dash = text.dropFirst().firstIndex(where: { $0 == "-" || $0 == "–" }),
      let low = number(text[..<dash]), let high = number(text[text.index(after: dash)...]), low <= high
    else { throw LabError.badRange(String(text.prefix(20))) }
    return (low, high)
  }

  static func text(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
