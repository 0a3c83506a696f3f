import Foundation

/// One donation: an appointment, a completed donation, or a cancelled appointment.
public struct Donation: Equatable, Sendable {
  public var id: String
  public var kind: DonationKind
  public var status: DonationStatus
  public var scheduledAt: Date?
  public var completedAt: Date?
  public var place: String
  public var notes: String?
  public var vitals: DonationVitals

  public init(
    id: String = UUID().uuidString.lowercased(), kind: DonationKind, status: DonationStatus,
    scheduledAt: Date?, completedAt: Date?, place: String, notes: String? = nil, vitals: DonationVitals = .init()
  ) {
    self.id = id
    self.kind = kind
    self.status = status
    self.scheduledAt = scheduledAt
    self.completedAt = completedAt
    self.place = place
    self.notes = notes
    self.vitals = vitals
  }

  /// When it happened or is to happen: the completion time, else the appointment time.
  public var date: Date? { completedAt ?? scheduledAt }
}

public enum DonationKind: String, CaseIterable, Sendable {
  case wholeBlood = "whole-blood"
  case plasma
  case platelets
  case doubleRed = "double-red"

  public var label: String {
    switch self {
    case .wholeBlood: "whole blood"
    case .plasma: "plasma"
    case .platelets: "platelets"
    case .doubleRed: "double red cells"
    }
  }
}

public enum DonationStatus: String, CaseIterable, Sendable {
  case scheduled, completed, cancelled
}
