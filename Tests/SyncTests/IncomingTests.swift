import Foundation
import Records
import Replication
import Storage
import Testing

@testable import Sync

/// A pulled change read into its dataset's places (`WireChange.incoming`): what lands where,
/// and that it refuses what `validated` refuses.
@Suite struct IncomingTests {
  let clock = "2026-11-18T11:06:40.123Z-0000-0123456789abcdef"
  let later = "2026-11-18T11:06:41.000Z-0001-00000000000000ff"
  let now = Date(timeIntervalSince1970: 1_795_000_000)

  func change(_ fields: WireFields, dataset: String = "donation", id: String = "d-1") -> WireChange {
    WireChange(dataset: dataset, id: id, fields: fields)
  }

  @Test func fieldsLandInTheirPlacesAndOthersAreLeftOut() throws {
    let record = try change([
      "place": WireField(value: .string("DRK"), hlc: clock), "hb_g_dl": WireField(value: .double(13.4), hlc: later),
      "notes": WireField(value: .null, hlc: clock), "from_a_newer_device": WireField(value: .int(1), hlc: clock),
      FieldMerge.deleted: WireField(value: .int(0), hlc: later),
    ]).incoming(now: now, in: [.donation])
    let fields = Dataset.donation.fields
    #expect(record.slots.count == fields.count)
    #expect(record.slots[fields.firstIndex(of: "place")!]?.value == .text("DRK"))
    #expect(record.slots[fields.firstIndex(of: "hb_g_dl")!]?.value == .real(13.4))
    #expect(record.slots[fields.firstIndex(of: "notes")!]?.value == .null)
    #expect(record.slots[fields.firstIndex(of: "kind")!] == nil, "a field not sent has no place filled")
    #expect(record.slots.compactMap { $0 }.count == 3, "the newer device's field is left out")
    #expect(record.deletion?.value == .integer(0))
    #expect(record.newest == HLC(later))
    #expect(Set(record.fields.keys) == ["place", "hb_g_dl", "notes", FieldMerge.deleted])
  }

  @Test func whatValidationRefusesIsRefusedHere() {
    let good = WireField(value: .string("DRK"), hlc: clock)
    let cases: [(WireChange, ChangeSetError)] = [
      (change(["place": WireField(value: .string("DRK"), hlc: "yesterday")]), .badClock("yesterday")),
      (change(["Place": good]), .badFieldName(dataset: "donation", field: "Place")),
      (change(["account_id": good]), .badFieldName(dataset: "donation", field: "account_id")),
      (change(["place": good], id: ""), .badID),
      (change(["place": good], dataset: "novel"), .unknownDataset("novel")),
      (change(["Place": good], dataset: "novel"), .badFieldName(dataset: "novel", field: "Place")),
    ]
    for (change, error) in cases {
      #expect(throws: error) { try change.incoming(now: now, in: [.donation]) }
    }
    let ahead = "2030-01-01T00:00:00.000Z-0000-0123456789abcdef"
    #expect(throws: ChangeSetError.clockAhead(ahead)) {
      try change(["place": WireField(value: .string("DRK"), hlc: ahead)]).incoming(now: now, in: [.donation])
    }
  }

  /// A clock kept from the change before (`LastClock`) is the same reading, and is checked again
  /// against each change's own `now`: a reading that passed for one is refused for a change
  /// checked as of a time it is too far ahead of.
  @Test func aClockKeptFromTheChangeBeforeIsCheckedAgainstEachNow() throws {
    var places = FieldPlaces()
    let first = try change(["place": WireField(value: .string("DRK"), hlc: clock)])
      .incoming(now: now, in: [.donation], places: &places)
    let second = try change(["place": WireField(value: .string("BSD"), hlc: clock)], id: "d-2")
      .incoming(now: now, in: [.donation], places: &places)
    let place = Dataset.donation.place(of: "place")!
    #expect(second.slots[place]?.value == .text("BSD") && second.slots[place]?.hlc == first.slots[place]?.hlc)
    #expect(second.newest == HLC(clock) && first.newest == HLC(clock))
    let before = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(throws: ChangeSetError.clockAhead(clock)) {
      try change(["place": WireField(value: .string("DRK"), hlc: clock)], id: "d-3")
        .incoming(now: before, in: [.donation], places: &places)
    }
    var kept = LastClock()
    try change(["place": WireField(value: .string("DRK"), hlc: clock)]).check(now: now, clock: &kept)
    #expect(throws: ChangeSetError.clockAhead(clock)) {
      try change(["place": WireField(value: .string("DRK"), hlc: clock)], id: "d-2").check(now: before, clock: &kept)
    }
  }

  /// The changes of a page read one after another with the places kept from one to the next,
  /// with names and datasets that change between them, land as each read alone lands.
  @Test func placesKeptFromChangeToChangeLandAsEachAlone() throws {
    let value = WireField(value: .string("DRK"), hlc: clock)
    let changes = [
      change(["place": value, "notes": value]),
      change(["place": value, "notes": value], id: "d-2"),
      change(["place": value, "kind": value]),
      change(["kind": value, "place": value, "zz_newer": value]),
      change(["place": value], dataset: "profile"),
      change(["place": value, "kind": value]),
      change([FieldMerge.deleted: WireField(value: .int(1), hlc: later)]),
    ]
    var places = FieldPlaces()
    for change in changes {
      let alone = try change.incoming(now: now, in: [.donation, .profile])
      let kept = try change.incoming(now: now, in: [.donation, .profile], places: &places)
      #expect(kept.dataset.name == alone.dataset.name)
      #expect(kept.slots.map { $0?.value } == alone.slots.map { $0?.value })
      #expect(kept.slots.map { $0?.hlc } == alone.slots.map { $0?.hlc })
      #expect(kept.deletion?.value == alone.deletion?.value)
      #expect(Set(kept.fields.keys) == Set(change.fields.keys).intersection(kept.dataset.fields + [FieldMerge.deleted]))
    }
  }
}
