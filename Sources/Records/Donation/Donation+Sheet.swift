import Core
import Foundation

extension Donation {
  /// The donation as `vital donor show` prints it and its page shows it.
  public func sheet(_ human: HumanText) -> RecordSheet {
    var sheet = RecordSheet()
    sheet.add("id", id)
    sheet.add("kind", kind.rawValue)
    sheet.add("status", status.rawValue)
    sheet.add("scheduled_at", scheduledAt.map(human.time))
    sheet.add("completed_at", completedAt.map(human.time))
    sheet.add("place", place)
    sheet.add("notes", notes)
    sheet.figure("haemoglobin", vitals.haemoglobin.map { "\($0) g/dL" })
    sheet.figure("ferritin", vitals.ferritin.map { "\($0) ng/mL" })
    if let s = vitals.systolic, let d = vitals.diastolic { sheet.figure("blood pressure", "\(s)/\(d) mmHg") }
    sheet.figure("pulse", vitals.pulse.map { "\($0) /min" })
    return sheet
  }
}
