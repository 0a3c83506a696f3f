import Core
import Foundation
import Replication
import Storage

/// Donation history as CSV: `id,kind,status,scheduled_at,completed_at,place,notes` and the
/// measurements `hb_g_dl,ferritin_ng_ml,bp_systolic,bp_diastolic,pulse_bpm`, date-times in ISO
/// 8601 with the local offset. Import is all or nothing and idempotent by id; files written
/// before the measurements existed (seven columns) still import and leave stored ones alone.
extension DonationStore {
  /// A donation's columns, as its shape lists them.
  public static let csvHeader = Donation.shape.columns.map(\.name)
  /// The seven columns files written before the measurements existed have.
  static let csvHeaderBeforeVitals = Array(csvHeader.prefix(7))

  public struct ImportSummary: Equatable, Sendable {
    public var rows = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Rows of donations deleted on this device (or synced as deleted): left deleted, as an
    /// Apple Health sample deleted by hand stays deleted when its export is imported again.
    public var keptDeleted = 0
  }

  public enum ImportError: Error, Equatable, CustomStringConvertible {
    case csv(CSV.ParseError)
    case header(columns: Int)
    case row(line: Int, String)

    public var description: String {
      switch self {
      case .csv(let error): return "\(error); nothing was imported"
      case .header(let columns):
        // The line itself is not echoed: it may be a row of health data.
        return
          "line 1: the header must be \(DonationStore.csvHeader.joined(separator: ",")) or its first 7 columns (found \(columns) columns that differ); nothing was imported"
      case .row(let line, let problem): return "line \(line): \(problem); nothing was imported"
      }
    }
  }
}
