// Entry point: parse, run, and turn every failure into the one-line error convention.
import CLIApp
import CLICore
import Foundation

// `vital help web` (sync, remote) is the sibling binary's own help, as `vital web --help` is:
// the passthrough here knows its arguments only as one list.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count >= 2, arguments[0] == "help", let (binary, prefix) = Vital.siblingCommands[arguments[1]] {
  do {
    try Sibling.exec(binary, prefix + arguments.dropFirst(2) + ["--help"])
  } catch {
    Output.error(CommandLineErrors.message(for: error))
    exit(1)
  }
}
// `vital sync` (remote, web) runs in its sibling binary: this process is replaced before the
// whole command tree is parsed, a cost every sync of one changed record would pay again.
if let (binary, handedOn) = Vital.passthrough(CommandLine.arguments) {
  do {
    try Sibling.exec(binary, handedOn)
  } catch {
    Output.error(CommandLineErrors.message(for: error))
    exit(1)
  }
}
await Vital.start()
