import Foundation
import Hummingbird

/// A `vital` command run beside the server, on the same home, its output streamed to the
/// browser as it comes: an export or a report is exactly what the command writes, made by the
/// same code, and never held whole in memory (the pipe holds back the command while the
/// browser is slow).
struct SiblingCommand: Sendable {
  let home: String
  let arguments: [String]

  /// The process's output as a download named `filename`; a command that fails before writing
  /// anything is a refusal with its own error line (which names no health value).
  func download(_ filename: String, contentType: String) async throws -> Response {
    let (process, output) = try start()
    let first = try await Self.read(output)
    guard !first.isEmpty else {
      process.waitUntilExit()
      throw WebError(
        .internalServerError, "'vital \(arguments.first ?? "")' wrote nothing: run it in a terminal to see why.")
    }
    let body = ResponseBody { writer in
      var chunk = first
      while !chunk.isEmpty {
        try await writer.write(ByteBuffer(bytes: chunk))
        chunk = try await Self.read(output)
      }
      process.waitUntilExit()
      try await writer.finish(nil)
    }
    return Response(
      status: .ok,
      headers: [.contentType: contentType, .contentDisposition: "attachment; filename=\"\(filename)\""], body: body)
  }

  /// The process's whole output and its error line, for a short answer (`--json` of a status).
  func output() async throws -> (status: Int32, stdout: Data, error: String) {
    let errors = Pipe()
    let (process, output) = try start(errors: errors.fileHandleForWriting)
    var data = Data()
    while true {
      let chunk = try await Self.read(output)
      if chunk.isEmpty { break }
      data.append(chunk)
    }
    process.waitUntilExit()
    try? errors.fileHandleForWriting.close()
    let error = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, data, error.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  private func start(errors: FileHandle? = nil) throws -> (Process, FileHandle) {
    let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("vital")
    process.arguments = arguments + ["--home", home]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = errors ?? FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return (process, pipe.fileHandleForReading)
  }

  /// The next chunk of `handle` (empty at its end), read off the cooperative pool: a pipe read
  /// blocks.
  static func read(_ handle: FileHandle) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: handle.availableData)
      }
    }
  }
}
