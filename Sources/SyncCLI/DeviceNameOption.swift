import ArgumentParser
import Foundation

/// `--device-name`: what this device is called in `vital remote devices` (the host name unless given).
struct DeviceNameOption: ParsableArguments {
  @Option(help: "What this device is called in 'vital remote devices' (default: the host name).")
  var deviceName: String?

  func validate() throws {
    if let deviceName {
      let name = deviceName.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty, name.count <= 64,
        !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else { throw ValidationError("--device-name takes 1 to 64 characters, no control characters") }
    }
  }

  var name: String {
    let given = deviceName?.trimmingCharacters(in: .whitespaces) ?? ""
    if !given.isEmpty { return given }
    let host = ProcessInfo.processInfo.hostName
    return host.isEmpty ? "unnamed device" : String(host.prefix(64))
  }
}
