/// Whole numbers from doubles that never trap: `Int(x)` stops the program for an infinite, NaN
/// or huge `x`, and a stored value (or a sum of them) can be any of these.
extension Double {
  /// The nearest Int: 0 for NaN, `Int.min` or `Int.max` beyond its range.
  public var saturatingInt: Int {
    guard !isNaN else { return 0 }
    let r = rounded()
    if r >= 9.2e18 { return Int.max }
    if r <= -9.2e18 { return Int.min }
    return Int(r)
  }

  /// `7745`: rounded to a whole number, as text; `–` for what is no number.
  public var wholeText: String { isFinite ? String(saturatingInt) : "–" }
}
