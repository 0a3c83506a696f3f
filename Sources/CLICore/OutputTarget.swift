import Foundation

/// Where a command may write a file it was given: a new name, or a regular file it replaces.
/// A device (`/dev/full`), a FIFO, a socket or a folder is refused, and so is a symbolic link:
/// the file is written under a temporary name and renamed over the target, which would replace
/// the link, or the node, with a regular file rather than write where it points.
public enum OutputTarget {
  public static func check(_ path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { throw CLIError.cannotWrite(path, reason: String(cString: strerror(errno))) }
      return
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFLNK:
      throw CLIError.cannotWrite(path, reason: "a symbolic link; give the path of the file itself")
    case S_IFDIR: throw CLIError.cannotWrite(path, reason: "a folder; give a file name")
    default:
      throw CLIError.cannotWrite(path, reason: "not a regular file (a device, FIFO or socket); give a file name")
    }
  }
}
