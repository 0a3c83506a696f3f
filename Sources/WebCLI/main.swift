// vital-web: the record in a browser on this machine, which `vital web` hands over to this
// binary so that everyday commands do not load the HTTP server.
import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Web

struct VitalWeb: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "vital web",
    abstract: "Your record in a browser on this machine: the same database, the same undo.",
    discussion: """
      Prints 'Vital is at http://127.0.0.1:PORT/?token=TOKEN' as its first line and serves until \
      Ctrl-C. Only a browser that opened that link gets in: the token is new at each start. The \
      pages read and write the logged-in account's records as the commands do, so 'vital undo' \
      undoes a change made on a page.

      Examples:
        vital web
        vital web --open
        vital web --listen 127.0.0.1:8765
      """)
  // Not GlobalOptions: a server prints no JSON, so --json is not offered.
  @Option(
    help: ArgumentHelp(
      "The data folder (default: $VITAL_HOME, else ${XDG_DATA_HOME:-~/.local/share}/vital).", valueName: "dir"))
  var home: String?
  @Option(help: "HOST:PORT to listen on; port 0 picks a free one.") var listen = "127.0.0.1:0"
  @Flag(help: "Open the page in the desktop's browser (xdg-open).") var open = false
  @Flag(help: "Allow an address other machines reach: anyone who gets the link can read and change your record.")
  var allowRemote = false

  func validate() throws {
    guard HostPort(listen) != nil else { throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:0") }
  }

  func run() async throws {
    let address = HostPort(listen)!
    let exposed = !WebListen.isLoopback(address.host)
    if exposed && !allowRemote {
      throw CLIError.needsInput(
        "--listen \(listen) is reachable from other machines, and the pages show and change your whole record over plain HTTP; keep 127.0.0.1, or add --allow-remote if you mean it"
      )
    }
    let environment = ProcessInfo.processInfo.environment
    let fixed = environment["VITAL_NOW"].flatMap { $0.isEmpty ? nil : try? App.clock(environment).0 }
    let store = try WebStore(home: home, clock: { fixed ?? Date() })
    let sessions = try WebSessions()
    // 0.0.0.0 and :: are where it listens, not an address a browser can open.
    let host = ["0.0.0.0", "::"].contains(address.host) ? WebListen.hostName() : address.urlHost
    let open = self.open
    let web = buildWebApplication(
      configuration: WebConfiguration(host: address.host, port: address.port, remote: exposed),
      store: store, sessions: sessions, address: WebAddress(),
      onRunning: { port in
        let url = "http://\(host):\(port)/?token=\(sessions.token)"
        FileHandle.standardOutput.write(Data("Vital is at \(url)\n".utf8))
        if exposed {
          FileHandle.standardError.write(
            Data(
              "warning: listening on \(address.urlHost):\(port): anyone who reaches it and gets the link can read and change your record, unencrypted\n"
                .utf8))
        }
        if open { WebListen.openInBrowser(url) }
      })
    do {
      try await web.runService()
    } catch  where String(describing: error).contains("errno: \(EADDRINUSE)") {
      throw CLIError.needsInput(
        "\(listen) is in use by another program; choose another port, or 127.0.0.1:0 for a free one")
    }
  }
}

await VitalWeb.start()
