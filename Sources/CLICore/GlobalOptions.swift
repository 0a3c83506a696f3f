import ArgumentParser

/// Options every command accepts after its name.
public struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The data folder (default: $VITAL_HOME, else ${XDG_DATA_HOME:-~/.local/share}/vital).",
      valueName: "dir"))
  public var home: String?

  @Flag(name: .long, help: "Print exactly one JSON document on stdout.")
  public var json = false

  public init() {}
}
