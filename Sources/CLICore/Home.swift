import Foundation

/// The data folder: `vital.sqlite` and `session` live here, readable by the owner only.
public struct Home {
  public let path: String

  public var databasePath: String { path + "/vital.sqlite" }
  public var sessionPath: String { path + "/session" }

  /// `--home`, else `$VITAL_HOME`, else `${XDG_DATA_HOME:-~/.local/share}/vital`.
  public static func resolve(option: String?, environment: [String: String]) -> String {
    if let option, !option.isEmpty { return option }
    if let home = environment["VITAL_HOME"], !home.isEmpty { return home }
    if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/vital" }
    let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return user + "/.local/share/vital"
  }

  /// Creates the folder (0700) if needed and checks that Vital can write there.
  public static func prepare(_ path: String) throws -> Home {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else { throw CLIError.homeIsNotAFolder(path) }
      // The folder holds health data: nobody else may list or read it.
      if info.st_mode & 0o077 != 0 && info.st_uid == geteuid() { chmod(path, 0o700) }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw CLIError.homeNotWritable(path, reason: Self.reason(for: error, path: path))
      }
    }
    guard access(path, W_OK | X_OK) == 0 else {
      throw CLIError.homeNotWritable(path, reason: String(cString: strerror(errno)).lowercased())
    }
    return Home(path: path)
  }

  private static func reason(for error: Error, path: String) -> String {
    // Foundation's message names the whole path twice; the errno text is what helps.
    if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
      posix.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(posix.code))).lowercased()
    }
    var parent = (path as NSString).deletingLastPathComponent
    while !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
      parent = (parent as NSString).deletingLastPathComponent
    }
    if access(parent.isEmpty ? "." : parent, W_OK) != 0 { return "permission denied" }
    return "it cannot be created"
  }
}
