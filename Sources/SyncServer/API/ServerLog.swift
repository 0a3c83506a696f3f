import Foundation

/// What the server says about itself on stderr, beside the request log: never an email, a
/// token or a value, only ids a person running the server can look up.
enum ServerLog {
  static func warnDuplicates(_ groups: [[String]]) {
    for ids in groups {
      FileHandle.standardError.write(
        Data(
          "warning: accounts \(ids.joined(separator: ", ")) are one email address written two ways (Unicode); both are kept and log in as stored\n"
            .utf8))
    }
  }

  /// A checkpoint that failed after its answer went: what it was to copy is safe in the log,
  /// and the next one copies it.
  static func checkpointFailed(_ error: any Error) {
    FileHandle.standardError.write(
      Data(
        "warning: copying the write-ahead log into the database failed; tried again after the next sync: \(error)\n"
          .utf8))
  }
}
