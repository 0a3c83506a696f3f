import Foundation
import TestServer
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `vital` on a pseudo-terminal and answers its prompts one by one, as a person at a
/// terminal would: each answer is typed only once its prompt has appeared (a password prompt
/// flushes what was typed ahead).
extension VitalHome {
  /// Whether this machine gives out pseudo-terminals (a bare chroot without /dev/pts does not).
  static let terminalsAvailable: Bool = {
    var master: Int32 = 0
    var slave: Int32 = 0
    guard openpty(&master, &slave, nil, nil, nil) == 0 else { return false }
    close(master)
    close(slave)
    return true
  }()

  func runOnTerminal(_ arguments: [String], answers: [(prompt: String, answer: String)]) throws -> String {
    var master: Int32 = 0
    var slave: Int32 = 0
    guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(master) }
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = arguments + ["--home", home]
    var env = TestServer.processEnvironment
    env.merge(environment) { $1 }
    process.environment = env
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    process.standardInput = terminal
    process.standardOutput = terminal
    process.standardError = terminal
    try process.run()
    try terminal.close()
    var seen = ""
    func read(until text: String, seconds: Double = 20) {
      let deadline = Date().addingTimeInterval(seconds)
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !seen.hasSuffix(text) && !seen.contains(text) && Date() < deadline {
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 200) > 0 else { continue }
        let n = Glibc.read(master, &buffer, buffer.count)
        if n <= 0 { return }
        seen += String(decoding: buffer[0..<n], as: UTF8.self)
      }
    }
    for (prompt, answer) in answers {
      read(until: prompt)
      seen = seen.replacingOccurrences(of: prompt, with: "[\(prompt)]")
      _ = (answer + "\n").withCString { Glibc.write(master, $0, strlen($0)) }
    }
    read(until: "\u{0}", seconds: 3)  // whatever comes after the last answer
    process.waitUntilExit()
    return seen
  }
}
