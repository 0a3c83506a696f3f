import Foundation

/// `notify-send`, when it is installed and a session bus is there to carry the notification.
/// From cron there is no `DBUS_SESSION_BUS_ADDRESS`, but the user's bus socket usually exists.
struct DesktopNotifier {
  let path: String
  let bus: String

  static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> DesktopNotifier? {
    var bus = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
    if bus.isEmpty {
      let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
      var info = stat()
      if stat(runtime + "/bus", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { bus = "unix:path=\(runtime)/bus" }
    }
    guard !bus.isEmpty else { return nil }
    for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(folder)/notify-send"
      if access(candidate, X_OK) == 0 { return DesktopNotifier(path: candidate, bus: bus) }
    }
    return nil
  }

  struct Failed: Error {}

  func send(title: String, body: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--app-name=Vital", "--", title, body]
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = bus
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw Failed() }
  }
}
