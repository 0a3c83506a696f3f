import Foundation

/// Where results go: one JSON document with `--json`, else text for people.
public struct Output {
  public let json: Bool

  /// Prints `document` with `--json`, else the text `human` makes.
  public func show(_ document: JSON, human: () -> String) throws {
    Self.write(json ? document.serialized() : human())
  }

  public static func write(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  }

  public static func error(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  }
}

extension Output {
  /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
  public static var colour: Bool {
    isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
  }
}
