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

/// Reads an input file (or stdin for `-`) with a size limit, as one clear error when it fails.
public enum InputFile {
  public static func read(_ path: String, limit: Int) throws -> Data {
    if path == "-" {
      let data = FileHandle.standardInput.readData(ofLength: limit + 1)
      guard data.count <= limit else { throw CLIError.cannotRead(path, reason: "more than \(limit >> 20) MiB") }
      return data
    }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw CLIError.cannotRead(path, reason: String(cString: strerror(errno)).lowercased())
    }
    guard info.st_mode & S_IFMT == S_IFREG else { throw CLIError.cannotRead(path, reason: "not a regular file") }
    guard Int(info.st_size) <= limit else { throw CLIError.cannotRead(path, reason: "larger than \(limit >> 20) MiB") }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CLIError.cannotRead(path, reason: "permission denied")
    }
    defer { try? handle.close() }
    return (try? handle.readToEnd()) ?? Data()
  }
}
