import CLIApp
import CLICore
import Foundation

/// Prints a page to PDF with a headless Chromium, the way a person would print it from the
/// browser: A4, the page's own margins, no header or footer. Chromium is started without any of
/// its background services, so it makes no network connection.
enum ReportPrinter {
  enum Failure: Error, CustomStringConvertible {
    case noChromium
    case failed(String)

    var description: String {
      switch self {
      case .noChromium:
        return
          "printing to PDF needs Chromium, which is not installed: 'sudo apt install chromium' (or write HTML with --out report.html and print it from a browser)"
      case .failed(let why):
        return
          "Chromium could not print the report (\(why)); write HTML with --out report.html and print it from a browser"
      }
    }
  }

  static func chromium() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
        return "\(dir)/\(name)"
      }
    }
    return nil
  }

  static func printPDF(html: String, to out: String) throws {
    try OutputTarget.check(out)
    guard let browser = chromium() else { throw Failure.noChromium }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "vital-report-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: work) }
    let page = work.appendingPathComponent("report.html")
    let partial = work.appendingPathComponent("report.pdf")
    try Data(html.utf8).write(to: page)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: browser)
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-domain-reliability",
      "--disable-client-side-phishing-detection", "--disable-extensions", "--no-pdf-header-footer",
      "--user-data-dir=\(work.appendingPathComponent("profile").path)", "--print-to-pdf=\(partial.path)",
      page.absoluteString,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = work.path
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let head = try? FileHandle(forReadingFrom: partial).read(upToCount: 5),
      head == Data("%PDF-".utf8)
    else {
      let last = String(decoding: stderr, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "no output"
      throw Failure.failed("exit \(process.terminationStatus): \(last.prefix(200))")
    }
    // Moved into place whole, as every other file Vital writes.
    let temporary = out + ".partial-\(getpid())"
    try OutputTarget.check(out)
    try? FileManager.default.removeItem(atPath: temporary)
    try FileManager.default.copyItem(atPath: partial.path, toPath: temporary)
    chmod(temporary, 0o600)
    guard rename(temporary, out) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw CLIError.cannotWrite(out, reason: reason)
    }
  }
}
