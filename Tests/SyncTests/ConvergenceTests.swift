import Foundation
import PropertyBased
import Storage
import TestServer
import Testing

@testable import Sync

/// Three devices of one user do random things and sync in random order; after everyone syncs
/// twice, every device holds the same data. The same with end-to-end encryption on.
@Suite struct ConvergenceTests {
  @Test(arguments: [false, true])
  func threeDevicesConvergeWhateverTheyDoAndWhenTheySync(encrypted: Bool) async throws {
    var template = Array((NSTemporaryDirectory() + "/vital-converge-XXXXXX").utf8CString)
    let folder = String(cString: mkdtemp(&template)!)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let server = try TestServer(dataDirectory: folder + "/data")

    await propertyCheck(count: 6, input: Gen.int(in: 0...999_999).array(of: 5...40)) { operations in
      let email = "p-\(UUID().uuidString.prefix(8).lowercased())@example.org"
      let devices = try (0..<3).map { _ in try Device(email: email, url: server.url) }
      try await devices[0].register()
      try await devices[1].login()
      try await devices[2].login()
      if encrypted {
        let passphrase = "the family sync passphrase"
        _ = try await devices[0].client.turnOnEncryption(passphrase: passphrase, token: devices[0].token, logN: 10)
        for device in devices.dropFirst() {
          _ = try await device.client.unlock(passphrase: passphrase, token: device.token)
        }
      }
      for code in operations {
        let device = devices[code / 7 % 3]
        let local = try device.db.query("SELECT id FROM donation ORDER BY id") { try $0.get(0, as: String.self) }
        let target = local.isEmpty ? nil : local[code / 21 % local.count]
        switch code % 7 {
        case 0, 1: _ = try device.donation(place: "centre \(code)")
        case 2: if let target { try device.replica.write(.donation, id: target, ["place": .text("moved \(code)")]) }
        case 3: if let target { try device.replica.write(.donation, id: target, ["status": .text("cancelled")]) }
        case 4:
          // Half the time a delete seen here is taken back (an undo): the restore must win
          // everywhere over the delete it follows, and lose to a later one.
          let deleted = try device.db.query(
            "SELECT row_id FROM sync_row WHERE dataset = 'donation' AND clocks LIKE '%_deleted=%' ORDER BY row_id"
          ) { try $0.get(0, as: String.self) }
          if code / 3 % 2 == 0, !deleted.isEmpty {
            try device.replica.restore(
              .donation, id: deleted[code / 21 % deleted.count],
              [
                "kind": .text("plasma"), "status": .text("completed"), "scheduled_at": .null,
                "completed_at": .text("2026-01-02T10:00:00.000Z"), "place": .text("restored \(code)"), "notes": .null,
              ])
          } else if let target {
            try device.replica.delete(.donation, id: target)
          }
        case 5: try device.replica.write(.profile, id: "profile-shared", ["surname": .text("s\(code)")])
        default: try await device.sync()
        }
      }
      for _ in 0..<2 {
        for device in devices { try await device.sync() }
      }
      let first = try devices[0].snapshot()
      for device in devices.dropFirst() {
        #expect(try device.snapshot() == first)
      }
      // The server holds every record, and, encrypted, none in the clear.
      let response = try await RawHTTP(url: server.url).sync("{\"changes\":[]}", token: devices[0].token)
      #expect(response.1.contains("\"encrypted\":\(encrypted)"))
      if encrypted { #expect(!response.1.contains("centre ") && !response.1.contains("moved ")) }
      #expect(try devices.allSatisfy { try $0.replica.pendingCount() == 0 })
    }
  }
}
