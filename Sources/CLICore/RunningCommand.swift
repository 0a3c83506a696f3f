/// The command `start()` runs, by its names from the root (`donor edit`), bound for the time it
/// runs: what the command opens (`App`) journals its writes as one change under this name.
public enum RunningCommand {
  @TaskLocal public static var name: String?
}
