import Core
import Foundation

extension Donation {
  /// The donation as `vital donor show` prints it and its page shows it.
  public func sheet(_ human: HumanText) -> RecordSheet {
    var sheet = RecordSheet()
    sheet.add("id", id)
    sheet.add("kind", kind.rawValue)
    sheet.add("status", status.rawValue)
    sheet.add("scheduled", scheduledAt.map(human.time))
    sheet.add("completed", completedAt.map(human.time))
    sheet.add("place", place)
    sheet.add("notes", notes)
    // As typed and as the list shows them: 14.2, 38 (not 38.0).
    sheet.figure("haemoglobin", vitals.haemoglobin.map { "\(Self.figure($0)) g/dL" })
    sheet.figure("ferritin", vitals.ferritin.map { "\(Self.figure($0)) ng/mL" })
    if let s = vitals.systolic, let d = vitals.diastolic { sheet.figure("blood pressure", "\(s)/\(d) mmHg") }
    sheet.figure("pulse", vitals.pulse.map { "\($0) /min" })
    return sheet
  }

  /// `14.2`, `38`: a measured figure without a trailing `.0`.
  public static func figure(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
