import Foundation

/// What a device calls itself in `vital remote devices`: one rule for the client that sends it
/// and the server that keeps it.
public enum DeviceName {
  public static let maxLength = 64
  /// A login without a name.
  public static let unnamed = "unnamed device"

  /// `text` trimmed; nil when it is empty, longer than `maxLength` characters or holds a
  /// control character.
  public static func checked(_ text: String) -> String? {
    let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty, name.count <= maxLength,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return nil }
    return name
  }
}
