import CLICore
import Foundation

/// Where an export goes: stdout, or a file written through a temporary name and renamed at the
/// end, so a failed export never leaves half a file.
public final class OutputSink {
  private let handle: FileHandle
  private let path: String?
  private let temporary: String?

  public init(path: String?, app: App) throws {
    guard let path, path != "-" else {
      handle = FileHandle.standardOutput
      self.path = nil
      temporary = nil
      return
    }
    try OutputTarget.check(path)
    let temporary = path + ".partial-\(getpid())"
    guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
      let handle = FileHandle(forWritingAtPath: temporary)
    else { throw CLIError.cannotWrite(path, reason: String(cString: strerror(errno))) }
    self.handle = handle
    self.path = path
    self.temporary = temporary
  }

  public func write(_ text: String) throws {
    try handle.write(contentsOf: Data(text.utf8))
  }

  public func write(bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try handle.write(contentsOf: $0) }
  }

  public func finish() throws {
    guard let path, let temporary else { return }
    try handle.close()
    // Checked again: something else may have been made there while the file was written.
    do { try OutputTarget.check(path) } catch {
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw CLIError.cannotWrite(path, reason: reason)
    }
  }

  deinit {
    if let temporary, FileManager.default.fileExists(atPath: temporary) { unlink(temporary) }
  }
}
