import Foundation
import Records

/// What a Gadgetbridge sample's raw kind says of sleep, for each family of devices that stores
/// its minutes in the common shape (docs/gadgetbridge.md). Raw kinds are the device's own
/// numbers, never Gadgetbridge's ActivityKind: each table and device family reads them its way.
enum GadgetbridgeKind {
  /// Mi Band 1, 1A and 1S (`DEVICE.TYPE_NAME` `MIBAND`, or `TYPE` 10 before Gadgetbridge 0.77).
  case miBand1
  /// Every other Huami band or watch in `MI_BAND_ACTIVITY_SAMPLE` (Mi Band 2 to 6, Amazfit):
  /// the low four bits, 0 and 10 meaning "as before".
  case huami
  /// Zepp OS devices (`HUAMI_EXTENDED_ACTIVITY_SAMPLE`): 120 is sleep, its stage from the
  /// `DEEP_SLEEP` and `REM_SLEEP` columns.
  case zeppOS
  /// Pebble: no kind in the minute table; sleep comes from `PEBBLE_HEALTH_ACTIVITY_OVERLAY`.
  case pebble

  /// A minute's state: asleep in a stage, not worn, or nothing said of sleep.
  enum Minute: Equatable {
    case asleep(SleepState)
    case notWorn
    case other
  }

  /// The minute's state from its raw kind; `previous` is the device's last raw kind that said
  /// something (for Huami's "as before").
  func minute(raw: Int64, deep: Int64?, rem: Int64?, previous: Int64?) -> (Minute, said: Int64?) {
    switch self {
    case .miBand1:
      switch raw {
      case 4: return (.asleep(.deep), raw)
      case 5: return (.asleep(.core), raw)
      case 3, 6: return (.notWorn, raw)
      default: return (.other, raw)
      }
    case .huami:
      guard raw != -1 else { return (.other, previous) }
      let low = raw & 0x0F
      if low == 0 || low == 10 {
        guard let previous, previous & 0x0F != 0, previous & 0x0F != 10 else { return (.other, previous) }
        return (Self.huami.minute(raw: previous, deep: nil, rem: nil, previous: nil).0, previous)
      }
      switch low {
      case 9: return (.asleep(.core), raw)
      case 11: return (.asleep(.deep), raw)
      case 3, 6: return (.notWorn, raw)
      default: return (.other, raw)
      }
    case .zeppOS:
      switch raw {
      case 120:
        // Gadgetbridge's own thresholds for the stage bytes.
        if let rem, rem & 127 > 55 { return (.asleep(.rem), raw) }
        if let deep, deep & 127 > 42 { return (.asleep(.deep), raw) }
        return (.asleep(.core), raw)
      case 115, 118: return (.notWorn, raw)
      default: return (.other, raw)
      }
    case .pebble:
      switch raw {
      case 1, 3: return (.asleep(.core), raw)
      case 2, 4: return (.asleep(.deep), raw)
      default: return (.other, raw)
      }
    }
  }

  /// The family a device's rows in `MI_BAND_ACTIVITY_SAMPLE` belong to.
  static func miBand(typeName: String?, type: Int64?) -> GadgetbridgeKind {
    if let typeName, !typeName.isEmpty { return typeName == "MIBAND" ? .miBand1 : .huami }
    return type == 10 ? .miBand1 : .huami
  }
}

/// One device's minutes of sleep joined into stretches of one stage: a Gadgetbridge night is
/// hundreds of minutes, kept as the few samples Apple Health would write for it.
struct SleepStretches {
  private(set) var open: (state: SleepState, start: Int64, last: Int64)?

  /// The minute at `ts`; the stretch it ends, if it ends one.
  mutating func add(_ state: SleepState?, at ts: Int64) -> (state: SleepState, start: Int64, end: Int64)? {
    if let current = open, let state, current.state == state, ts - current.last <= 90 {
      open = (state, current.start, ts)
      return nil
    }
    let ended = close()
    if let state { open = (state, ts, ts) }
    return ended
  }

  /// The stretch under way, ended a minute after its last sample.
  mutating func close() -> (state: SleepState, start: Int64, end: Int64)? {
    defer { open = nil }
    return open.map { ($0.state, $0.start, $0.last + 60) }
  }
}
