import Foundation
import TestImages
import Testing

enum TestImagesFile {
  static func png(at path: String, width: Int = 4, height: Int = 3) throws {
    try TestImages.png(width: width, height: height).write(to: URL(fileURLWithPath: path))
  }
}

@Suite struct ProfileTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-12-01T08:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "ann@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  @Test func profileCommandsNeedALogin() throws {
    #expect(try vital.run(["account", "logout"]).status == 0)
    for command in [["profile", "show"], ["profile", "set", "--sex", "male"], ["profile", "avatar", "clear"]] {
      expectCleanError(
        try vital.run(command), mentioning: "not logged in; run 'vital account register' or 'vital account login'")
    }
  }

  @Test func showListsEveryFieldWithNullsWhenUnset() throws {
    let doc = try #require(try vital.run(["profile", "show", "--json"]).object)
    let keys = [
      "email", "name", "surname", "blood_type", "sex", "birth_date", "weight_kg", "region", "avatar", "donations",
    ]
    #expect(Set(doc.keys) == Set(keys))
    #expect(doc["blood_type"] is NSNull && doc["avatar"] is NSNull)
    #expect(doc["region"] is NSNull, "unset until chosen: a new account is not silently in de")
    let donations = try #require(doc["donations"] as? [String: Any])
    #expect(donations["completed"] as? Int == 0)
  }

  @Test func setStoresEachFieldAndZeroMeansO() throws {
    let run = try vital.run([
      "profile", "set", "--name", "Ann", "--surname", "Łukasiewicz", "--blood-type", "0-", "--sex", "female",
      "--birth-date", "1990-05-01", "--weight-kg", "61.5", "--region", "uk",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let doc = try #require(try vital.run(["profile", "show", "--json"]).object)
    #expect(doc["name"] as? String == "Ann")
    #expect(doc["surname"] as? String == "Łukasiewicz")
    #expect(doc["blood_type"] as? String == "O-")
    #expect(doc["sex"] as? String == "female")
    #expect(doc["birth_date"] as? String == "1990-05-01")
    #expect(doc["weight_kg"] as? Double == 61.5)
    #expect(doc["region"] as? String == "uk")
  }

  @Test func badValuesAreUsageErrorsAndChangeNothing() throws {
    for args in [
      ["--blood-type", "C+"], ["--sex", "other"], ["--birth-date", "1990-02-30"], ["--weight-kg", "-3"],
      ["--region", "fr"], [],
    ] {
      #expect(try vital.run(["profile", "set"] + args).status == 64, "\(args)")
    }
    expectCleanError(try vital.run(["profile", "set", "--birth-date", "2030-01-01"]), mentioning: "future")
    let doc = try #require(try vital.run(["profile", "show", "--json"]).object)
    #expect(doc["birth_date"] is NSNull && doc["blood_type"] is NSNull)
  }

  @Test func anAvatarRoundTripsByteForByte() throws {
    let png = vital.root + "/me.png"
    try TestImagesFile.png(at: png, width: 64, height: 48)
    let set = try vital.run(["profile", "avatar", "set", png, "--json"])
    #expect(set.status == 0, "\(set.stderr)")
    let avatar = try #require(try vital.run(["profile", "show", "--json"]).object?["avatar"] as? [String: Any])
    #expect(avatar["mime"] as? String == "image/png")
    #expect(avatar["width"] as? Int == 64 && avatar["height"] as? Int == 48)
    let original = try Data(contentsOf: URL(fileURLWithPath: png))
    #expect(avatar["bytes"] as? Int == original.count)
    #expect((avatar["sha256"] as? String)?.count == 64)
    let out = vital.root + "/back.png"
    #expect(try vital.run(["profile", "avatar", "export", "--out", out]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == original)
    #expect(try vital.run(["profile", "avatar", "clear"]).status == 0)
    #expect(try vital.run(["profile", "show", "--json"]).object?["avatar"] is NSNull)
    expectCleanError(try vital.run(["profile", "avatar", "export", "--out", out]), mentioning: "no avatar")
  }

  @Test func everyBadAvatarIsRefusedAndTheOldOneKept() throws {
    let good = vital.root + "/good.jpg"
    try TestImages.jpeg(width: 200, height: 100).write(to: URL(fileURLWithPath: good))
    #expect(try vital.run(["profile", "avatar", "set", good]).status == 0)
    let before = try #require(try vital.run(["profile", "show", "--json"]).object?["avatar"] as? [String: Any])

    let cases: [(String, Data?, String)] = [
      ("text.png", Data("just some text, honestly".utf8), "not a PNG or JPEG"),
      ("cut.png", TestImages.png(width: 16, height: 16).prefix(40), "cut short"),
      ("huge.jpg", TestImages.jpeg(width: 10, height: 10, padding: 6 << 20), "at most 5 MiB"),
      ("empty.png", Data(), "empty"),
      ("giant.png", TestImages.pngHeaderOnly(width: 100_000, height: 100_000), "4096 x 4096"),
      ("folder", nil, "not a file"),
    ]
    for (name, data, message) in cases {
      let path = vital.root + "/" + name
      if let data {
        try data.write(to: URL(fileURLWithPath: path))
      } else {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      }
      expectCleanError(try vital.run(["profile", "avatar", "set", path]), mentioning: message)
    }
    expectCleanError(try vital.run(["profile", "avatar", "set", vital.root + "/missing.png"]), mentioning: "no file")
    let after = try #require(try vital.run(["profile", "show", "--json"]).object?["avatar"] as? [String: Any])
    #expect(after["sha256"] as? String == before["sha256"] as? String)
    #expect(after["mime"] as? String == "image/jpeg")
  }

  @Test func twoAccountsInOneHomeSeeOnlyTheirOwnProfile() throws {
    let png = vital.root + "/ann.png"
    try TestImagesFile.png(at: png)
    #expect(try vital.run(["profile", "set", "--blood-type", "B-", "--surname", "Annsdottir"]).status == 0)
    #expect(try vital.run(["profile", "avatar", "set", png]).status == 0)
    let bob = try vital.run(
      ["account", "register", "--email", "bob@example.org", "--password-stdin"], stdin: "bob's own long passphrase\n")
    #expect(bob.status == 0)
    let doc = try #require(try vital.run(["profile", "show", "--json"]).object)
    #expect(doc["email"] as? String == "bob@example.org")
    #expect(doc["blood_type"] is NSNull && doc["surname"] is NSNull && doc["avatar"] is NSNull)
    expectCleanError(
      try vital.run(["profile", "avatar", "export", "--out", vital.root + "/stolen.png"]), mentioning: "no avatar")
  }
}
