import ArgumentParser
import Foundation
import Sync

/// `--device-name`: what this device is called in `vital remote devices` (the host name unless given).
struct DeviceNameOption: ParsableArguments {
  @Option(help: "What this device is called in 'vital remote devices' (default: the host name).")
  var deviceName: String?

  func validate() throws {
    if let deviceName, DeviceName.checked(deviceName) == nil {
      throw ValidationError("--device-name takes 1 to \(DeviceName.maxLength) characters, no control characters")
    }
  }

  var name: String {
    if let given = deviceName.flatMap(DeviceName.checked) { return given }
    let host = ProcessInfo.processInfo.hostName
    return DeviceName.checked(String(host.prefix(DeviceName.maxLength))) ?? DeviceName.unnamed
  }
}
