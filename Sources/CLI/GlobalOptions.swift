import ArgumentParser

/// Options every command accepts after its name.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The data folder (default: $VITAL_HOME, else ${XDG_DATA_HOME:-~/.local/share}/vital).",
      valueName: "dir"))
  var home: String?

  @Flag(name: .long, help: "Print exactly one JSON document on stdout.")
  var json = false
}
