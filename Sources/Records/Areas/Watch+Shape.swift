import Replication

extension AreaStore.Watch {
  /// A watched place as it is stored, synced and exported (`AreaStore.watches`, `Dataset.areaWatch`).
  public static let shape = RecordShape<AreaStore.Watch>(
    blank: { AreaStore.Watch(id: "", label: "", point: GeoPoint(lon: 0, lat: 0)) },
    [
      .text("id", \.id), .text("label", \.label, rule: .text(maxBytes: 500)),
      .real("lat", \.point.lat, rule: .number(-90...90)), .real("lon", \.point.lon, rule: .number(-180...180)),
    ])

  package static let synced = shape.selection(Dataset.areaWatch.fields)
}
