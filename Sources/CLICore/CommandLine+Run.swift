import ArgumentParser
import Foundation
import Storage

extension ParsableCommand {
  /// Parses the arguments and runs the command. Usage errors keep argument-parser's wording and
  /// exit 64; every other failure is one `error:` line on stderr and exit 1.
  public static func start() async {
    let command: ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      if let message = CommandSuggestion.message(
        for: error, root: self, arguments: Array(CommandLine.arguments.dropFirst()))
      {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
        Foundation.exit(exitCode(for: error).rawValue)
      }
      exit(withError: error)
    }
    do {
      try await RunningCommand.$name.withValue(commandPath(to: type(of: command))) {
        if var asyncCommand = command as? AsyncParsableCommand {
          try await asyncCommand.run()
        } else {
          var command = command
          try command.run()
        }
      }
    } catch let error where CommandLineErrors.isParserError(error) {
      exit(withError: error)
    } catch {
      Output.error(CommandLineErrors.message(for: error))
      Foundation.exit(1)
    }
  }
}

extension ParsableCommand {
  /// The names from the root to `target` (`donor edit`), as the undo journal shows them.
  static func commandPath(to target: ParsableCommand.Type) -> String? {
    func walk(_ command: ParsableCommand.Type, _ path: [String]) -> [String]? {
      if command == target { return path }
      for sub in command.configuration.subcommands {
        let name = sub.configuration.commandName ?? String(describing: sub).lowercased()
        if let found = walk(sub, path + [name]) { return found }
      }
      return nil
    }
    return walk(self, []).map { $0.joined(separator: " ") }
  }
}

public enum CommandLineErrors {
  /// Help requests, validation and exit codes thrown while running belong to argument-parser.
  public static func isParserError(_ error: Error) -> Bool {
    error is ExitCode || error is CleanExit || error is ValidationError
      || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
  }

  /// Vital's own errors say what to do in their description; others get their best text.
  public static func message(for error: Error) -> String {
    let module = String(reflecting: type(of: error)).prefix(while: { $0 != "." })
    switch error {
    case let error as StorageError:
      return error.withoutSQL
    case let error as CustomStringConvertible
    where [
      "vital", "vital_sync", "vital_web", "vital_serve", "CLICore", "Storage", "Replication", "Auth", "AtRest", "Sync",
    ].contains(module):
      return error.description
    case let error as LocalizedError:
      return error.errorDescription ?? "\(error)"
    default:
      return "\(error)"
    }
  }
}
