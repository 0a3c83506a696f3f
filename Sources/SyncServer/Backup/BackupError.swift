/// Why a backup could not be written or restored; nothing was changed in either case.
public enum BackupError: Error, Equatable, CustomStringConvertible {
  case cannotWrite(String, reason: String)
  case cannotRead(String, reason: String)
  case notABackup(String)
  case newerVersion(Int)
  /// Line `line` is not what a backup holds there.
  case malformed(line: Int, String)
  /// The file stops before its last line: it was cut short.
  case truncated
  /// The last line's counts or checksum do not match what came before it.
  case tampered(String)
  case storeNotEmpty(String)

  public var description: String {
    switch self {
    case .cannotWrite(let path, let reason): "cannot write the backup to \(path): \(reason)"
    case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
    case .notABackup(let path): "\(path) is not a vital serve backup (its first line says what a backup is)"
    case .newerVersion(let version):
      "this backup is format version \(version), newer than this server reads (1); restore it with a newer vital"
    case .malformed(let line, let what): "line \(line) of the backup: \(what); nothing was restored"
    case .truncated: "the backup ends before its last line (cut short?); nothing was restored"
    case .tampered(let what): "the backup does not add up (\(what)): changed or damaged; nothing was restored"
    case .storeNotEmpty(let store):
      "\(store) already holds accounts; a backup restores only into an empty store (a new --data folder or database)"
    }
  }
}
