// vital-serve: the sync server process. `vital serve` checks its options and executes this
// binary, so the `vital` command that runs on every keystroke does not carry the HTTP stack.
//   vital-serve --listen HOST:PORT --data DIR [--now ISO8601] [--json]
import Foundation
import Storage
import SyncServer

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(1)
}

var options: [String: String] = [:]
var json = false
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
  if name == "--json" {
    json = true
  } else if ["--listen", "--data", "--now"].contains(name), let value = arguments.popFirst() {
    options[name] = value
  } else {
    fail("usage: vital-serve --listen HOST:PORT --data DIR [--now ISO8601] [--json]")
  }
}
guard let listen = options["--listen"], let data = options["--data"],
  let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...])
else { fail("usage: vital-serve --listen HOST:PORT --data DIR [--now ISO8601] [--json]") }
let host = String(listen[..<colon])

umask(0o077)
do {
  try FileManager.default.createDirectory(
    atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  let repository = try SQLiteSyncRepository(path: data + "/server.sqlite")
  var configuration = ServerConfiguration(host: host, port: port)
  if let text = options["--now"] {
    guard let now = ISO8601.date(from: text) else { fail("--now takes an ISO 8601 instant") }
    configuration.now = { now }
  }
  let asJSON = json
  let app = buildApplication(configuration: configuration, repository: repository) { port in
    let line = asJSON ? "{\"listening\": \"http://\(host):\(port)\"}\n" : "listening on http://\(host):\(port)\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  }
  try await app.runService()
} catch {
  fail("the server stopped: \(error)")
}
