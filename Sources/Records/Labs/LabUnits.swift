import Foundation

/// How unit names typed by people meet the catalogue's UCUM codes: case, `µ`/`u`/`mc`, brackets
/// (`mm[Hg]`, `[lb_av]`), `^`/`*` (`10^9/L`), `°C`/`Cel` and `°F`/`[degF]` are the same unit.
enum LabUnits {
  static func same(_ a: String, _ b: String) -> Bool { key(a) == key(b) }

  /// Lower case without brackets and spaces; `µ`, `μ` and `mc` as `u`, `^` as `*`, `°C` as
  /// `cel`, `°F` as `degf`. By hand: Foundation's string replacing would cost more than reading
  /// the catalogue.
  static func key(_ unit: String) -> String {
    var out = String.UnicodeScalarView()
    let scalars = Array(unit.lowercased().unicodeScalars)
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      let next = i + 1 < scalars.count ? scalars[i + 1] : nil
      switch c {
      case "[", "]", " ", "\t": break
      case "µ", "μ": out.append("u")
      case "^": out.append("*")
      case "m" where next == "c" && i + 2 < scalars.count && (scalars[i + 2] == "g" || scalars[i + 2] == "m"):
        out.append("u")
        i += 1
      case "°" where next == "c":
        out.append(contentsOf: "cel".unicodeScalars)
        i += 1
      case "°" where next == "f":
        out.append(contentsOf: "degf".unicodeScalars)
        i += 1
      default: out.append(c)
      }
      i += 1
    }
    return String(out)
  }
}
