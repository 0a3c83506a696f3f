import Core
import Foundation
import Storage

extension DonationStore {
  /// Completed donations at which anything was measured (haemoglobin, ferritin, blood
  /// pressure, pulse), from `from` and before `before`, oldest first: what `vital labs` reads
  /// as results of its tests.
  public func measured(from: Date? = nil, before: Date? = nil) throws -> [Donation] {
    let measured = [
      Donation.shape.name(of: \.vitals.haemoglobin), Donation.shape.name(of: \.vitals.ferritin),
      Donation.shape.name(of: \.vitals.systolic), Donation.shape.name(of: \.vitals.pulse),
    ].map { "\($0) IS NOT NULL" }.joined(separator: " OR ")
    return try db.query(
      """
      SELECT \(Self.columns) FROM donation WHERE account_id = ? AND status = 'completed'
        AND completed_at >= ? AND completed_at < ? AND (\(measured)) ORDER BY completed_at, id
      """, account.id, from.map(ISO8601.string(from:)) ?? "", before.map(ISO8601.string(from:)) ?? "~",
      row: Self.donation)
  }
}
