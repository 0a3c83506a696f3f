import ArgumentParser
import Foundation

/// Where the server keeps its data, as `vital-serve admin` takes it (`vital serve admin` passes
/// its arguments on): a SQLite folder, or a PostgreSQL URL (given, in a file, or in
/// VITAL_POSTGRES_URL, read by vital-serve itself so that it never shows in `ps`).
public struct ServeStoreOptions: ParsableArguments {
  @Option(help: "The server's SQLite folder (default: <home>/server, where `vital serve` keeps it).")
  public var data: String?
  @Option(help: "A PostgreSQL URL instead (visible in `ps`: prefer --postgres-file).") public var postgres: String?
  @Option(help: "A file whose first line is the PostgreSQL URL.", completion: .file()) public var postgresFile: String?
  @Flag(help: "Keep the SQLite store encrypted at rest with the secret in --key-file (docs/at-rest.md).")
  public var encrypt = false
  @Option(
    help: "With --encrypt: a file whose first line is the secret (a systemd credential, for one).",
    completion: .file())
  public var keyFile: String?

  public init() {}

  public func validate() throws {
    guard [data != nil, postgres != nil, postgresFile != nil].filter({ $0 }).count <= 1 else {
      throw ValidationError("give one of --data DIR, --postgres URL and --postgres-file FILE")
    }
    if encrypt != (keyFile != nil) {
      throw ValidationError("--encrypt and --key-file FILE go together: the file holds the store's secret")
    }
    if encrypt && (postgres != nil || postgresFile != nil) {
      throw ValidationError("--encrypt is for the SQLite store (--data); encrypt PostgreSQL's disk instead")
    }
  }

  /// `--encrypt --key-file FILE` as arguments, for a command that passes them on.
  public var encryptionArguments: [String] { keyFile.map { ["--encrypt", "--key-file", $0] } ?? [] }

  /// The PostgreSQL URL to use, if any: --postgres, the first line of --postgres-file, or
  /// VITAL_POSTGRES_URL when no SQLite folder is given.
  public func postgresURL(environment: [String: String]) throws -> String? {
    if let postgres { return postgres }
    guard let postgresFile else {
      return data == nil ? environment["VITAL_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 } : nil
    }
    guard let text = try? String(contentsOfFile: postgresFile, encoding: .utf8),
      let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty, text.utf8.count < 4096
    else {
      throw ValidationError("cannot read a PostgreSQL URL from \(postgresFile): it holds one line, postgres://...")
    }
    return String(line).trimmingCharacters(in: .whitespaces)
  }
}
