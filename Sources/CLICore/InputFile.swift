import Foundation

/// Reads an input file (or stdin for `-`) with a size limit, as one clear error when it fails.
public enum InputFile {
  public static func read(_ path: String, limit: Int) throws -> Data {
    if path == "-" {
      let data = FileHandle.standardInput.readData(ofLength: limit + 1)
      guard data.count <= limit else { throw CLIError.cannotRead(path, reason: "more than \(describe(limit))") }
      return data
    }
    let handle = try open(path)
    defer { try? handle.close() }
    var info = stat()
    guard fstat(handle.fileDescriptor, &info) == 0, Int(info.st_size) <= limit else {
      throw CLIError.cannotRead(path, reason: "larger than \(describe(limit))")
    }
    // Read no more than the limit even if the file grows meanwhile.
    let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
    guard data.count <= limit else { throw CLIError.cannotRead(path, reason: "larger than \(describe(limit))") }
    return data
  }

  /// A regular file opened for reading (stdin for `-`), to be read a part at a time.
  public static func open(_ path: String) throws -> FileHandle {
    if path == "-" { return FileHandle.standardInput }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw CLIError.cannotRead(path, reason: String(cString: strerror(errno)).lowercased())
    }
    guard info.st_mode & S_IFMT == S_IFREG else { throw CLIError.cannotRead(path, reason: "not a regular file") }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CLIError.cannotRead(path, reason: "permission denied")
    }
    return handle
  }

  static func describe(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
  }

  /// One line of stdin (a password, a passphrase), read a byte at a time so that nothing after
  /// it is consumed, and refused past `limit` bytes: stdin may be a file or a device without end.
  public static func stdinLine(limit: Int = 4096, what: String) throws -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let n = Foundation.read(STDIN_FILENO, &byte, 1)
      if n < 0, errno == EINTR { continue }
      if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if byte == UInt8(ascii: "\n") { break }
      bytes.append(byte)
      guard bytes.count <= limit else {
        throw CLIError.needsInput("the \(what) on stdin runs past \(limit) bytes without a line break; give one line")
      }
    }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }
}
