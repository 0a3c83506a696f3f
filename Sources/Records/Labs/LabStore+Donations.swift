import Core
import Foundation

/// What a blood service measured at a donation (haemoglobin, ferritin, blood pressure, pulse)
/// is read as lab results of the catalogue's tests, so that a donation's Hb and a GP's sit in
/// one list and one trend. The numbers stay where they are, in the donation: a copy in a lab
/// result would be a second synced record of the same figure, which devices running an older
/// Vital keep writing to the donation, and the two could drift apart. A donation's result has
/// the id `TEST.DONATION` (`hb.3f2a…`), is changed with the donation, and is not exported twice.
/// The donations come from the caller (`DonationStore.measured`): a feature does not open
/// another's store.
extension LabStore {
  /// A donation's measurements as results, at the time it was completed.
  public static func results(of donation: Donation) -> [LabResult] {
    guard let at = donation.completedAt else { return [] }
    let v = donation.vitals
    let values: [(String, Double?, Double?)] = [
      ("hb", v.haemoglobin, nil), ("ferritin", v.ferritin, nil),
      ("blood-pressure", v.systolic.map(Double.init), v.diastolic.map(Double.init)),
      ("pulse", v.pulse.map(Double.init), nil),
    ]
    return values.compactMap { test, value, second in
      value.map {
        LabResult(
          id: "\(test).\(donation.id)", test: test, value: $0, second: second, at: at, lab: donation.place,
          donationID: donation.id)
      }
    }
  }

  /// The test and the donation (id or prefix) an id of the form `TEST.DONATION` names; nil for
  /// any other id. The test may be named by an alias (`bp.3f2a`).
  public func donationReference(_ idOrPrefix: String) -> (test: String, donation: String, option: String)? {
    let parts = idOrPrefix.withoutSpaces.split(separator: ".", maxSplits: 1)
    guard parts.count == 2, let test = catalogue.test(String(parts[0]))?.id,
      let option = ["hb": "--hb", "ferritin": "--ferritin", "blood-pressure": "--bp", "pulse": "--pulse"][test]
    else { return nil }
    return (test, String(parts[1]), option)
  }

  /// The result of `test` measured at `donation`.
  public static func result(_ test: String, of donation: Donation) throws -> LabResult {
    guard let result = results(of: donation).first(where: { $0.test == test }) else {
      throw LabError.notFound("\(test).\(donation.id.prefix(8))")
    }
    return result
  }
}
