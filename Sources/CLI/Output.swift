import Foundation

/// Where results go: one JSON document with `--json`, else text for people.
struct Output {
  let json: Bool

  /// Prints `document` with `--json`, else the text `human` makes.
  func show(_ document: JSON, human: () -> String) throws {
    Self.write(json ? document.serialized() : human())
  }

  static func write(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  }

  static func error(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  }
}
