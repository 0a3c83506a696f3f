import Foundation

/// Where results go: one JSON document with `--json`, else text for people.
public struct Output {
  public let json: Bool

  public init(json: Bool) { self.json = json }

  /// Prints `document` with `--json`, else the text `human` makes, its control characters
  /// shown rather than obeyed (`TerminalText`). Each is made only when it is printed: a year
  /// of rows costs milliseconds to build twice.
  public func show(_ document: @autoclosure () throws -> JSON, human: () throws -> String) throws {
    Self.write(json ? try document().serialized() : Self.text(try human()))
  }

  /// Text for people as it may reach a terminal: controls escaped, Vital's own colours kept.
  public static func text(_ text: String) -> String { TerminalText.safe(text, keepColour: colour) }

  public static func write(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  }

  public static func error(_ message: String) {
    FileHandle.standardError.write(Data("error: \(TerminalText.safe(message, keepColour: false))\n".utf8))
  }
}

extension Output {
  /// Whether stdout is a terminal: a table there, CSV into a file or a pipe.
  public static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
  public static var colour: Bool {
    isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
  }

  /// The terminal's width in columns: the terminal's own when stdout is one, else `COLUMNS`,
  /// else 80.
  public static var width: Int {
    var size = winsize()
    if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 80
  }
}
