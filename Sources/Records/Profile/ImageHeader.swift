import Foundation

/// Reads what an avatar is from its bytes, never from its name: PNG by its signature and chunk
/// structure, JPEG by its markers. Width and height come from the parsed header.
public struct ImageHeader: Equatable, Sendable {
  public var mime: String
  public var width: Int
  public var height: Int

  public enum Problem: Error, Equatable {
    case empty
    case notAnImage
    case truncated
    case damaged
  }

  public static func inspect(_ data: Data) throws -> ImageHeader {
    let bytes = [UInt8](data)
    if bytes.isEmpty { throw Problem.empty }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try png(bytes) }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try jpeg(bytes) }
    throw Problem.notAnImage
  }

  /// Walks every chunk, checking lengths and CRCs, up to IEND.
  static func png(_ b: [UInt8]) throws -> ImageHeader {
    var i = 8
    var size: (Int, Int)?
    var first = true
    while true {
      guard i + 12 <= b.count else { throw Problem.truncated }
      let length = Int(be32(b, i))
      let type = Array(b[i + 4..<i + 8])
      guard length <= 0x7FFF_FFFF, i + 12 + length <= b.count else { throw Problem.truncated }
      let crc = be32(b, i + 8 + length)
      guard crc == CRC32.checksum(b[i + 4..<i + 8 + length]) else { throw Problem.damaged }
      if first {
        guard type == Array("IHDR".utf8), length == 13 else { throw Problem.damaged }
        size = (Int(be32(b, i + 8)), Int(be32(b, i + 12)))
        first = false
      }
      i += 12 + length
      if type == Array("IEND".utf8) { break }
    }
    guard let (w, h) = size, w > 0, h > 0 else { throw Problem.damaged }
    return ImageHeader(mime: "image/png", width: w, height: h)
  }

  /// Walks the marker segments to the frame header (SOFn), then requires the end marker (EOI).
  static func jpeg(_ b: [UInt8]) throws -> ImageHeader {
    var i = 2
    var size: (Int, Int)?
    while size == nil {
      guard i + 4 <= b.count else { throw Problem.truncated }
      guard b[i] == 0xFF else { throw Problem.damaged }
      let marker = b[i + 1]
      if marker == 0xFF {
        i += 1
        continue
      }  // fill bytes
      if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
        i += 2
        continue
      }
      if marker == 0xD9 || marker == 0xDA { throw Problem.damaged }  // image data before a frame header
      let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
      guard length >= 2 else { throw Problem.damaged }
      guard i + 2 + length <= b.count else { throw Problem.truncated }
      let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
      if isFrame {
        guard length >= 7 else { throw Problem.damaged }
        size = (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
      }
      i += 2 + length
    }
    // In entropy-coded data 0xFF is always followed by 0x00 or a restart marker, so FF D9 is EOI.
    var hasEnd = false
    var j = i
    while j + 1 < b.count {
      if b[j] == 0xFF && b[j + 1] == 0xD9 {
        hasEnd = true
        break
      }
      j += 1
    }
    guard hasEnd else { throw Problem.truncated }
    guard let (w, h) = size, w > 0, h > 0 else { throw Problem.damaged }
    return ImageHeader(mime: "image/jpeg", width: w, height: h)
  }

  private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
