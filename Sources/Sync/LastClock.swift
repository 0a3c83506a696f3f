import Foundation
import Replication

/// The clock text read last and the reading it gave, kept from one change to the next: the
/// records of an import all carry one clock, and reading it again for each record cost a first
/// sync and a first push 1,200 instructions a record on each side. A reading kept is checked
/// again against each change's `now` (only its time, not its text).
public struct LastClock {
  var text: String?
  var hlc: HLC?

  public init() {}
}
