import Foundation
import TestServer
import Testing

@testable import SyncHTTP

/// A device writes shared clocks only to a server that has said it reads them: an older server
/// would refuse them. Within a sync, once the first answer says so.
@Suite struct SharedClocksSyncTests {
  @Test(arguments: ["older", "sharing"])
  func aDeviceSharesClocksOnlyWithAServerThatReadsThem(mode: String) async throws {
    var template = Array((NSTemporaryDirectory() + "/vital-shared-XXXXXX").utf8CString)
    let folder = String(cString: mkdtemp(&template)!)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let server = try HostileServer(folder: folder)
    let device = try Device(email: "ann@example.org", url: server.url(mode))
    try await device.login()
    for i in 0..<40 { _ = try device.donation(place: "Centre \(i)") }
    let client = device.client
    // Six fields a donation: about three records a request, so a dozen requests or more.
    client.batchSize = 20
    let summary = try await client.sync(token: device.token, cursor: nil) { _ in }
    #expect(summary.pushed == 40)
    let forms = server.forms(mode)
    #expect(forms.count >= 12, "\(forms)")
    if mode == "older" {
      #expect(!forms.contains(true), "\(forms)")
    } else {
      // The second request is written while the first is on its way, before its answer.
      #expect(forms.prefix(2).allSatisfy { !$0 } && forms.dropFirst(2).allSatisfy { $0 }, "\(forms)")
    }
  }
}
