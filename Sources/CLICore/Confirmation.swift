import Foundation

/// A yes/no question before something that cannot be taken back lightly: asked on a terminal,
/// answered by `--yes` in scripts.
public enum Confirmation {
  public struct Refused: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// Returns whether to go on: `yes` goes on; a terminal is asked (`[y/N]`); without a
  /// terminal the command stops and says to add `--yes`.
  public static func ask(_ question: String, yes: Bool) throws -> Bool {
    if yes { return true }
    guard isatty(STDIN_FILENO) == 1 else {
      throw Refused(description: "no terminal to ask on; add --yes to confirm")
    }
    FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
    guard let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() else {
      return false
    }
    return answer == "y" || answer == "yes"
  }
}
