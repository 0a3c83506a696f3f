import Foundation

enum WebListen {
  /// Addresses only this machine reaches.
  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  /// This machine's name, for a link other machines can open.
  static func hostName() -> String {
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count) == 0 else { return "localhost" }
    let bytes = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Hands the link to the desktop's browser; without one, the printed line is enough.
  static func openInBrowser(_ url: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", url]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      FileHandle.standardError.write(Data("warning: could not run xdg-open; open the link above yourself\n".utf8))
    }
  }
}
