import Foundation

/// Lengths of time as people type them: `15m`, `4h`, `1h30m`, `2d`.
public enum TimeSpan {
  public static func seconds(_ text: String) -> TimeInterval? {
    var total = 0
    var number = ""
    let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
    for character in text.trimmingCharacters(in: .whitespaces).lowercased() {
      if character.isASCII && character.isNumber {
        number.append(character)
      } else if let unit = units[character], let n = Int(number), number.count <= 6 {
        total += n * unit
        number = ""
      } else {
        return nil
      }
    }
    guard number.isEmpty, total > 0 else { return nil }
    return TimeInterval(total)
  }

  /// `4h`, `1h30m`, `15m`.
  public static func text(_ seconds: TimeInterval) -> String {
    let s = Int(seconds)
    let parts = [(s / 86_400, "d"), (s % 86_400 / 3600, "h"), (s % 3600 / 60, "m"), (s % 60, "s")]
    let text = parts.filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
    return text.isEmpty ? "0m" : text
  }
}
