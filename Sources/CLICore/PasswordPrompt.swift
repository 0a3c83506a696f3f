import Foundation

/// Passwords come from a terminal with echo off, or from stdin with `--password-stdin`; never
/// from an argument, where `ps` and shell history would show them.
public enum PasswordPrompt {
  public enum Failure: Error, CustomStringConvertible {
    case noTerminal(what: String, flag: String)
    case missingLine(String)
    case mismatch(String)

    public var description: String {
      switch self {
      case .noTerminal(let what, let flag):
        return "no terminal to ask for the \(what) on; pass \(flag) and send it on stdin"
      case .missingLine(let what): return "expected the \(what) as a line on stdin"
      case .mismatch(let what): return "the two \(what)s differ; try again"
      }
    }
  }

  /// Whether `read` can ask without stdin: there is a terminal.
  public static var canAsk: Bool { isatty(STDIN_FILENO) == 1 }

  /// One password: the next stdin line with `fromStdin`, else asked for on the terminal.
  public static func read(
    _ what: String, fromStdin: Bool, confirm: Bool = false, kind: String = "password", flag: String = "--password-stdin"
  ) throws -> String {
    if fromStdin {
      guard let line = try InputFile.stdinLine(what: what) else { throw Failure.missingLine(what) }
      return line
    }
    guard canAsk else { throw Failure.noTerminal(what: kind, flag: flag) }
    let first = try ask("\(what.prefix(1).uppercased() + what.dropFirst()): ")
    if confirm {
      guard try ask("Repeat the \(what): ") == first else { throw Failure.mismatch(kind) }
    }
    return first
  }

  /// Asks on the terminal with `prompt` (echo off); nil when there is no terminal to ask on.
  public static func askIfTerminal(_ prompt: String) throws -> String? {
    canAsk ? try ask(prompt) : nil
  }

  private static func ask(_ prompt: String) throws -> String {
    var saved = termios()
    tcgetattr(STDIN_FILENO, &saved)
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO)
    // Echo goes off before the prompt shows: what is typed (or pasted) as soon as it shows is
    // kept, not flushed, and never echoed.
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    FileHandle.standardError.write(Data(prompt.utf8))
    defer {
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
      FileHandle.standardError.write(Data("\n".utf8))
    }
    guard let line = readLine(strippingNewline: true) else { throw Failure.missingLine("password") }
    return line
  }
}
