import ArgumentParser

/// `--password-stdin`, shared by every command that asks for a password.
public struct PasswordOptions: ParsableArguments {
  @Flag(help: "Read the password as a line from stdin instead of asking on the terminal.")
  public var passwordStdin = false

  public init() {}
}
