import Foundation

/// The order SQLite keeps TEXT in under its BINARY collation: by bytes, a shorter text first
/// where one begins the other. String's own `<` follows Unicode's canonical order, which is not
/// it (`"\u{E9}"` and `"e\u{301}"` are one String to Swift, two keys to SQLite).
public enum TextOrder {
  /// Below zero when `a` sorts before `b`, zero when they are the same bytes, above otherwise.
  public static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    let common = min(a.count, b.count)
    let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
    return order != 0 ? Int(order) : a.count - b.count
  }

  /// Whether `a` sorts before `b`.
  public static func less(_ a: String, _ b: String) -> Bool {
    var (a, b) = (a, b)
    return a.withUTF8 { a in b.withUTF8 { b in compare(a, b) < 0 } }
  }
}
