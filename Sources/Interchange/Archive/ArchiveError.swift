/// Why an export file was refused. Nothing of it is kept when any of these is thrown.
public enum ArchiveError: Error, CustomStringConvertible, Equatable {
  case notAnExport
  case newerVersion(Int)
  case malformed(line: Int, String)
  case lineTooLong(line: Int)
  case truncated(line: Int)
  case checksumMismatch
  case unknownDataset(line: Int, String)
  case unknownField(line: Int, dataset: String, String)
  /// A record that fails its rules, or names itself twice, or a blob whose id is not its hash.
  case invalidRecord(dataset: String, id: String, String)

  public var description: String {
    let nothing = "nothing was imported"
    switch self {
    case .notAnExport:
      return
        "this is neither a Vital export nor a FHIR bundle (it does not start with {\"format\":\"vital-export\"); write one with 'vital export'"
    case .newerVersion(let version):
      return "this export is of version \(version), written by a newer Vital; update Vital and import it again"
    case .malformed(let line, let what):
      return "line \(line): \(what); the file is damaged or was edited, \(nothing)"
    case .lineTooLong(let line):
      return "line \(line) runs past 64 MiB; the file is damaged, \(nothing)"
    case .truncated(let line):
      return "the file ends at line \(line) before its checksum: it was cut short; export it again, \(nothing)"
    case .checksumMismatch:
      return "the file's SHA-256 does not match its contents: it was changed or damaged after the export; \(nothing)"
    case .unknownDataset(let line, let name):
      return
        "line \(line): unknown kind of record '\(name.prefix(40))'; it may come from a newer Vital: update Vital, \(nothing)"
    case .invalidRecord(let dataset, let id, let what):
      return "\(dataset.replacingOccurrences(of: "_", with: " ")) \(id.prefix(64)): \(what); \(nothing)"
    case .unknownField(let line, let dataset, let name):
      return
        "line \(line): \(dataset) has no field '\(name.prefix(40))'; it may come from a newer Vital: update Vital, \(nothing)"
    }
  }
}
