/// Why an avatar was refused. The previous avatar is kept in every case.
public enum AvatarError: Error, Equatable, CustomStringConvertible {
  case missing(String)
  case notAFile(String)
  case unreadable(String, reason: String)
  case empty
  case tooLarge(bytes: Int)
  case tooManyPixels(width: Int, height: Int)
  case notAnImage
  case truncated
  case damaged
  case none

  public var description: String {
    switch self {
    case .missing(let path): return "no file at '\(path)'"
    case .notAFile(let path): return "'\(path)' is not a file; give the path of a PNG or JPEG image"
    case .unreadable(let path, let reason): return "cannot read '\(path)' (\(reason))"
    case .empty: return "the file is empty; give a PNG or JPEG image"
    case .tooLarge(let bytes):
      return "the image is \(bytes / 1024) KiB; avatars may be at most 5 MiB, so shrink it first"
    case .tooManyPixels(let width, let height):
      return "the image is \(width) x \(height) pixels; avatars may be at most 4096 x 4096, so scale it down first"
    case .notAnImage: return "the file is not a PNG or JPEG image (checked by content, not by name)"
    case .truncated: return "the image is cut short; export it again"
    case .damaged: return "the image is damaged; export it again"
    case .none: return "there is no avatar; set one with 'vital profile avatar set FILE'"
    }
  }
}
