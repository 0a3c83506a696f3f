import Foundation

/// Small images built byte by byte, so tests need no image library and no binary fixtures.
public enum TestImages {
  /// A sound PNG of the given size: greyscale, one byte per pixel, zlib "stored" blocks.
  public static func png(width: Int, height: Int, shade: UInt8 = 0x80) -> Data {
    var raw: [UInt8] = []
    for _ in 0..<height { raw += [0] + [UInt8](repeating: shade, count: width) }
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    out += chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
    out += chunk("IDAT", zlibStored(raw))
    out += chunk("IEND", [])
    return Data(out)
  }

  /// Only the signature and an IHDR claiming `width` x `height`, with a correct CRC, then IEND.
  public static func pngHeaderOnly(width: Int, height: Int) -> Data {
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    out += chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
    out += chunk("IEND", [])
    return Data(out)
  }

  /// A baseline JPEG's marker structure (SOI, APP0, DQT, SOF0, DHT, SOS, scan data, EOI) with
  /// `padding` extra bytes of scan data.
  public static func jpeg(width: Int, height: Int, padding: Int = 64) -> Data {
    var out: [UInt8] = [0xFF, 0xD8]
    out += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    out += segment(0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
    out += segment(0xC4, [0x00] + [0, 1] + [UInt8](repeating: 0, count: 14) + [0])
    out += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
    out += [UInt8](repeating: 0x2A, count: padding)
    out += [0xFF, 0xD9]
    return Data(out)
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(data.count) + body + be32(Int(crc32(body)))
  }

  static func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] {
    [0xFF, marker] + be16(data.count + 2) + data
  }

  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var rest = data[...]
    repeat {
      let block = rest.prefix(65535)
      rest = rest.dropFirst(block.count)
      let n = UInt16(block.count)
      out += [rest.isEmpty ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
      out += block
    } while !rest.isEmpty
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return out + be32(Int(b << 16 | a))
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      c ^= UInt32(byte)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
  }

  static func be32(_ v: Int) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }
  static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
