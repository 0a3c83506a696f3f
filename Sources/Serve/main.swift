// vital-serve: the sync server process. `vital serve` checks its options and executes this
// binary, so the `vital` command that runs on every keystroke does not carry the HTTP stack.
//   vital-serve --listen HOST:PORT (--data DIR | --postgres URL) [--now ISO8601] [--json]
import Foundation
import Storage
import SyncServer

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(1)
}

let usage = "usage: vital-serve --listen HOST:PORT (--data DIR | --postgres URL) [--now ISO8601] [--json]"
var options: [String: String] = [:]
var json = false
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
  if name == "--json" {
    json = true
  } else if ["--listen", "--data", "--postgres", "--now"].contains(name), let value = arguments.popFirst() {
    options[name] = value
  } else {
    fail(usage)
  }
}
guard let listen = options["--listen"], (options["--data"] == nil) != (options["--postgres"] == nil),
  let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...])
else { fail(usage) }
let host = String(listen[..<colon])

umask(0o077)

var configuration = ServerConfiguration(host: host, port: port)
if let text = options["--now"] {
  guard let now = ISO8601.date(from: text) else { fail("--now takes an ISO 8601 instant") }
  configuration.now = { now }
}

func serve(_ repository: any SyncRepository, _ configuration: ServerConfiguration, json asJSON: Bool) async throws {
  let host = configuration.host
  let app = buildApplication(configuration: configuration, repository: repository) { port in
    let line = asJSON ? "{\"listening\": \"http://\(host):\(port)\"}\n" : "listening on http://\(host):\(port)\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  }
  try await app.runService()
}

do {
  if let url = options["--postgres"] {
    let client = try PostgresSyncRepository.makeClient(url: url)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      try await serve(try await PostgresSyncRepository(client: client), configuration, json: json)
      group.cancelAll()
    }
  } else if let data = options["--data"] {
    try FileManager.default.createDirectory(
      atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try await serve(try SQLiteSyncRepository(path: data + "/server.sqlite"), configuration, json: json)
  }
} catch {
  fail("the server stopped: \(String(describing: error).prefix(300))")
}
