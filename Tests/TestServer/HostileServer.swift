import Foundation

/// A tiny sync server in Python that misbehaves on purpose: it logs anyone in, and answers
/// `POST <mode>/v1/sync` as `mode` says. `requests(mode)` counts the syncs it answered (in files
/// beside the script).
///
/// - `moving`: more is waiting, a new cursor each time, nothing in the page.
/// - `same`: more is waiting, the cursor it was given.
/// - `backwards`: more is waiting, a cursor below the one it was given.
/// - `long`: a cursor of 10,000 characters.
/// - `garbage`: a cursor that is not `<epoch>:<number>`.
/// - `flood`: more is waiting, always, with 200 new valid donations per page.
/// - `older`: a server from before shared clocks: nothing is waiting, and a change with a field
///   that has no clock of its own is refused (400).
/// - `sharing`: nothing is waiting, and the answer says the server reads shared clocks; a
///   request that does not say its device reads them is refused (400).
///
/// In the last two, `forms(mode)` lists for each request that pushed changes whether their fields
/// shared clocks.
public final class HostileServer: @unchecked Sendable {
  public let url: URL
  private let process = Process()

  static let script = #"""
    import http.server, json, sys, threading
    counts = {}
    lock = threading.Lock()

    def donation(n, i):
        clock = "2026-11-20T10:00:00.000Z-0000-00000000000000ff"
        values = {"kind": "whole-blood", "status": "completed", "scheduled_at": None,
                  "completed_at": "2026-01-01T10:00:00.000Z", "notes": None,
                  "place": "page %d donation %d " % (n, i) + "x" * 200}
        return {"dataset": "donation", "id": "d-%d-%d" % (n, i),
                "fields": {name: {"hlc": clock, "value": value} for name, value in values.items()}}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def answer(self, status, obj):
            body = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def split(self):
            parts = self.path.split("/", 2)
            return parts[1], "/" + (parts[2] if len(parts) > 2 else "")
        def do_GET(self):
            mode, path = self.split()
            if path == "/v1/version":
                self.answer(200, {"server": "hostile", "version": "0.0.1", "protocol": 1})
            else:
                self.answer(404, {"error": {"message": "not found"}})
        def do_POST(self):
            mode, path = self.split()
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            if path == "/v1/sessions":
                return self.answer(200, {"token": "t", "user_id": "u", "session_id": "s"})
            if path != "/v1/sync":
                return self.answer(404, {"error": {"message": "not found"}})
            with lock:
                counts[mode] = counts.get(mode, 0) + 1
                with open("%s/%s.count" % (sys.argv[1], mode), "w") as f: f.write(str(counts[mode]))
            changes = request.get("changes", [])
            shared = any("*" in c["fields"] or any("hlc" not in f for n, f in c["fields"].items() if n != "*")
                         for c in changes)
            if mode in ("older", "sharing"):
                if changes:
                    with lock, open("%s/%s.forms" % (sys.argv[1], mode), "a") as f: f.write("1" if shared else "0")
                if mode == "older" and shared:
                    return self.answer(400, {"error": {"code": "bad_request", "message": "a field has no clock"}})
                if mode == "sharing" and request.get("shared_clocks") is not True:
                    return self.answer(400, {"error": {"code": "bad_request", "message": "no shared_clocks"}})
                answer = {"accepted": len(changes), "changes": [], "has_more": False, "encrypted": False,
                          "cursor": "e0:%d" % counts[mode]}
                if mode == "sharing": answer["shared_clocks"] = True
                return self.answer(200, answer)
            since = request.get("since") or "e0:0"
            n = int(since.split(":")[1]) if ":" in since and since.split(":")[1].isdigit() else 0
            page = {"accepted": len(request.get("changes", [])), "changes": [], "has_more": True,
                    "encrypted": False, "cursor": "e0:%d" % (n + 1)}
            if mode == "same": page["cursor"] = since
            if mode == "backwards": page["cursor"] = "e0:%d" % (n + 5 if n < 5 else n - 3)
            if mode == "long": page["cursor"] = "e0:" + "9" * 10000
            if mode == "garbage": page["cursor"] = "not a cursor"
            if mode == "flood": page["changes"] = [donation(n, i) for i in range(200)]
            self.answer(200, page)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#

  private let folder: String

  public init(folder: String) throws {
    self.folder = folder
    let path = folder + "/hostile.py"
    try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [path, folder]
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The port it bound, on its first line.
    var line = Data()
    while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
      line.append(first)
    }
    guard let port = Int(String(decoding: line, as: UTF8.self)) else {
      kill(process.processIdentifier, SIGKILL)
      throw NSError(domain: "HostileServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "python3 did not start"])
    }
    url = URL(string: "http://127.0.0.1:\(port)")!
  }

  /// The base URL of a mode, for `vital remote set`.
  public func url(_ mode: String) -> URL { url.appendingPathComponent(mode) }

  /// How many sync requests the server answered in `mode`.
  public func requests(_ mode: String) -> Int {
    (try? String(contentsOfFile: folder + "/" + mode + ".count", encoding: .utf8)).flatMap { Int($0) } ?? 0
  }

  /// For each sync request with changes answered in `mode` (`older`, `sharing`), in order:
  /// whether their fields shared clocks.
  public func forms(_ mode: String) -> [Bool] {
    let text = (try? String(contentsOfFile: folder + "/" + mode + ".forms", encoding: .utf8)) ?? ""
    return text.map { $0 == "1" }
  }

  // SIGKILL: the child may inherit a mask that blocks SIGTERM from the test runner.
  deinit { kill(process.processIdentifier, SIGKILL) }
}
