import Foundation

/// A progress bar on stderr, drawn only when stderr is a terminal and at most 10 times a second.
public final class ProgressBar {
  let label: String
  let enabled = isatty(STDERR_FILENO) == 1
  private var lastDraw = Date.distantPast
  private var drew = false

  public init(_ label: String) { self.label = label }

  public func update(_ done: Int64, of total: Int64) {
    guard enabled, total > 0 else { return }
    let now = Date()
    guard now.timeIntervalSince(lastDraw) >= 0.1 || done >= total else { return }
    lastDraw = now
    drew = true
    let fraction = min(1, Double(done) / Double(total))
    let width = 30
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let text = String(
      format: "\r%@ [%@] %3.0f%% %.0f/%.0f MB", label, bar, fraction * 100, Double(done) / 1e6, Double(total) / 1e6)
    FileHandle.standardError.write(Data(text.utf8))
  }

  public func finish() {
    if drew { FileHandle.standardError.write(Data("\n".utf8)) }
  }
}
