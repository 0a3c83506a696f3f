import Foundation

/// How unit names typed by people meet the catalogue's UCUM codes: case, `µ`/`u`/`mc`, brackets
/// (`mm[Hg]`, `[lb_av]`), `^`/`*` (`10^9/L`), `°C`/`Cel` and `°F`/`[degF]` are the same unit.
enum LabUnits {
  static func same(_ a: String, _ b: String) -> Bool { key(a) == key(b) }

  static func key(_ unit: String) -> String {
    var text = unit.trimmingCharacters(in: .whitespaces).lowercased()
    for (from, to) in [
      ("µ", "u"), ("μ", "u"), ("mcg", "ug"), ("mcmol", "umol"), ("°c", "cel"), ("°f", "degf"), ("[", ""), ("]", ""),
      ("^", "*"), (" ", ""),
    ] {
      text = text.replacingOccurrences(of: from, with: to)
    }
    return text
  }
}
