import Foundation

/// What a test writes to a child's stdin or a server's socket can meet a reader that is gone: a
/// child that refused its arguments before reading them, a server that answered 413 before the
/// whole body came. That must fail the write, not kill the whole test process with SIGPIPE (every
/// test of the run with it). A handler that does nothing, unlike SIG_IGN, is reset to the default
/// in each child the tests start, so `vital` itself still meets a closed pipe as programs do.
public enum BrokenPipe {
  private static let handled: Void = { _ = signal(SIGPIPE, { _ in }) }()

  public static func survive() { _ = handled }

  /// Writes `data` to a child's stdin and closes it; a child already gone is the child's test's
  /// business, seen in its exit status and output.
  public static func write(_ data: Data, to pipe: Pipe) {
    survive()
    try? pipe.fileHandleForWriting.write(contentsOf: data)
    try? pipe.fileHandleForWriting.close()
  }
}
