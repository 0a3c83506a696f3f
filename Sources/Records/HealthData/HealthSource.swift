import Cryptography
import Foundation

/// Where samples come from: the export's `sourceName` (an iPhone, a Watch, an app), the kind
/// of device it is, and the place the user gave it in the ranking. When two sources measured
/// the same minutes, the totals count the one ranked first (`CumulativeCount`).
public struct HealthSource: Equatable, Sendable {
  public enum Kind: String, CaseIterable, Sendable {
    case watch, phone, other

    /// The order sources rank in by default: watches, then phones, then the rest.
    var order: Int {
      switch self {
      case .watch: return 0
      case .phone: return 1
      case .other: return 2
      }
    }

    /// The kind from the export's `device` attribute (`<<HKDevice: 0x…>, name:Apple Watch,
    /// manufacturer:Apple Inc., model:Watch, …>`), or from the source's name where the record
    /// has no device (older exports, apps).
    public init(device: String?, name: String) {
      if let device, let model = Self.field("model", in: device) {
        self = model.hasPrefix("Watch") ? .watch : model.hasPrefix("iPhone") ? .phone : .other
        return
      }
      let lower = name.lowercased()
      self = lower.contains("watch") ? .watch : lower.contains("iphone") ? .phone : .other
    }

    static func field(_ key: String, in device: String) -> Substring? {
      guard let range = device.range(of: "\(key):") else { return nil }
      let rest = device[range.upperBound...]
      return rest.prefix { $0 != "," && $0 != ">" }.drop { $0 == " " }
    }
  }

  /// `HealthSource.id(name:)`.
  public var id: String
  public var name: String
  public var kind: Kind
  /// The place given with `vital health sources --prefer` (1 is first); nil ranks by kind.
  public var preferred: Int?

  public init(name: String, kind: Kind, preferred: Int? = nil) {
    self.id = Self.id(name: name)
    self.name = name
    self.kind = kind
    self.preferred = preferred
  }

  /// The record id of a source: made from its name, so every device of an account names the
  /// same source with the same id.
  public static func id(name: String) -> String {
    "src-" + Crypto.sha256Hex(utf8: name).prefix(24)
  }

  /// Sources in the order their samples count: preferred ones in the order given, then
  /// watches, phones and the rest, ties by name.
  public static func ranked(_ sources: [HealthSource]) -> [HealthSource] {
    sources.sorted {
      ($0.preferred ?? .max, $0.kind.order, $0.name) < ($1.preferred ?? .max, $1.kind.order, $1.name)
    }
  }
}
