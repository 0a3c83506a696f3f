import Storage
import Testing

@testable import Replication

/// A shape reaches its record's properties through key paths made on first use: at their
/// offsets for stored properties (nested ones too), through the key path for computed ones.
@Suite struct RecordShapeTests {
  struct Vitals: Sendable, Equatable {
    var pulse: Int?
    var note = ""
  }

  struct Visit: Sendable, Equatable {
    var id = ""
    var vitals = Vitals()
    var minutes: Int?
    /// Stored as hours: a property with no offset, read and written through its key path.
    var hours: Double? {
      get { minutes.map { Double($0) / 60 } }
      set { minutes = newValue.map { Int(($0 * 60).rounded()) } }
    }
  }

  static let shape = RecordShape<Visit>(
    blank: { Visit() },
    [
      .text("id", \.id), .integer("pulse", \.vitals.pulse, 20...250), .text("note", \.vitals.note),
      .number("hours", \.hours, 0...48),
    ])

  static func visit(_ n: Int) -> Visit {
    Visit(id: "v\(n)", vitals: Vitals(pulse: 40 + n % 100, note: "visit \(n)"), minutes: n % 7 == 0 ? nil : n * 30)
  }

  @Test func storedNestedAndComputedPropertiesRoundTripThroughATable() throws {
    let db = try Database(path: ":memory:")
    try db.executeScript("CREATE TABLE visit (id TEXT NOT NULL, pulse INTEGER, note TEXT NOT NULL, hours REAL);")
    let all = Self.shape.selection(["id", "pulse", "note", "hours"])
    let visits = (1...40).map(Self.visit)
    for visit in visits {
      _ = try db.execute("INSERT INTO visit VALUES (?, ?, ?, ?)", values: Self.shape.values(visit, all))
    }
    #expect(try db.query("SELECT hours FROM visit WHERE id = 'v2'") { try $0.get(0, as: Double.self) } == [1])
    let back = try db.query("SELECT id, pulse, note, hours FROM visit ORDER BY rowid", row: Self.shape.record)
    #expect(back == visits)
  }

  /// Threads that touch a shape's columns for the first time at once all find the same
  /// properties (bulk writes read and write records on several threads).
  @Test func columnsFirstUsedOnSeveralThreadsAtOnceReadAndWriteTheSameProperties() async {
    let shape = RecordShape<Visit>(blank: { Visit() }, Self.shape.columns)
    let all = shape.selection(["id", "pulse", "note", "hours"])
    let results = await withTaskGroup(of: Bool.self) { group in
      for n in 1...16 {
        group.addTask {
          let visit = Self.visit(n)
          let values = shape.values(visit, all)
          var back = Visit()
          for (index, value) in zip(all.indexes, values) { _ = shape.readers[index](&back, value) }
          return back == visit && values[1] == .integer(Int64(40 + n % 100))
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 16 && results.allSatisfy { $0 })
  }

  @Test func aColumnIsNamedByItsProperty() {
    #expect(Self.shape.name(of: \Visit.vitals.pulse) == "pulse")
    #expect(Self.shape.name(of: \Visit.hours) == "hours")
    #expect(Self.shape.value(Self.visit(4), \Visit.vitals.note) == .text("visit 4"))
  }
}
