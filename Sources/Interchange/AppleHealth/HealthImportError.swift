/// Why an Apple Health import stopped. Messages name the place in the file, never a value.
public enum HealthImportError: Error, Equatable, CustomStringConvertible {
  case empty(String)
  case notAnExport(String, root: String)
  case malformed(String, line: Int, column: Int, reason: String, kept: Int)
  case noExportInZip(String)
  case unreadableZip(String, reason: String)
  /// The export's CRC-32 does not match what it holds: the archive was damaged on the way.
  case damagedZip(String)
  case cannotRead(String, reason: String)
  /// libxml2, which reads the export, is not installed (the loader's reason).
  case needsLibXML2(reason: String)

  public var description: String {
    switch self {
    case .empty(let file):
      return "'\(file)' is empty; export again from the Health app (Profile > Export All Health Data)"
    case .notAnExport(let file, let root):
      return "'\(file)' is not an Apple Health export (its root element is <\(root.prefix(40))>, expected <HealthData>)"
    case .malformed(let file, let line, let column, let reason, let kept):
      let keptText =
        kept == 0
        ? "nothing was imported"
        : "the \(kept) new records before it were imported and kept; importing a repaired file adds only what is missing"
      return "'\(file)' is not well-formed XML at line \(line), column \(column) (\(reason.prefix(120))); \(keptText)"
    case .noExportInZip(let file):
      return
        "'\(file)' holds no export.xml (expected apple_health_export/export.xml); is it the Health app's export.zip?"
    case .unreadableZip(let file, let reason):
      return "cannot read the zip '\(file)' (\(reason)); is the download complete?"
    case .damagedZip(let file):
      return
        "'\(file)' is damaged: export.xml does not match its checksum (CRC-32); nothing was imported; copy or export it again"
    case .cannotRead(let file, let reason): return "cannot read '\(file)' (\(reason))"
    case .needsLibXML2(let reason):
      return "reading an Apple Health export needs libxml2, which is not installed (\(reason.prefix(200))); "
        + "install it (Debian: apt install libxml2) and import again"
    }
  }
}
