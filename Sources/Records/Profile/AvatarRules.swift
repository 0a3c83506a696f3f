import Foundation

/// The limits on avatars, and reading a candidate file without trusting its size or name.
public enum AvatarRules {
  public static let maxBytes = 5 * 1024 * 1024
  public static let maxSide = 4096

  public static func check(_ data: Data) throws -> ImageHeader {
    if data.isEmpty { throw AvatarError.empty }
    if data.count > maxBytes { throw AvatarError.tooLarge(bytes: data.count) }
    let header: ImageHeader
    do {
      header = try ImageHeader.inspect(data)
    } catch let problem as ImageHeader.Problem {
      switch problem {
      case .empty: throw AvatarError.empty
      case .notAnImage: throw AvatarError.notAnImage
      case .truncated: throw AvatarError.truncated
      case .damaged: throw AvatarError.damaged
      }
    }
    if header.width > maxSide || header.height > maxSide {
      throw AvatarError.tooManyPixels(width: header.width, height: header.height)
    }
    return header
  }

  /// Reads at most one byte more than the limit, so a huge file is refused without loading it.
  public static func read(path: String) throws -> Data {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { throw AvatarError.missing(path) }
      throw AvatarError.unreadable(path, reason: String(cString: strerror(errno)))
    }
    guard info.st_mode & S_IFMT == S_IFREG else { throw AvatarError.notAFile(path) }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw AvatarError.unreadable(path, reason: "permission denied")
    }
    defer { try? handle.close() }
    do {
      let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
      if data.count > maxBytes { throw AvatarError.tooLarge(bytes: Int(info.st_size)) }
      return data
    } catch let error as AvatarError {
      throw error
    } catch {
      throw AvatarError.unreadable(path, reason: "read failed")
    }
  }
}
