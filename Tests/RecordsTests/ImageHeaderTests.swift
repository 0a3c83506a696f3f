import Foundation
import TestImages
import Testing

@testable import Records

@Suite struct ImageHeaderTests {
  @Test func aPNGGivesItsSizeFromIHDR() throws {
    let header = try ImageHeader.inspect(TestImages.png(width: 3, height: 2))
    #expect(header == ImageHeader(mime: "image/png", width: 3, height: 2))
  }

  @Test func aJPEGGivesItsSizeFromTheFrameHeader() throws {
    let header = try ImageHeader.inspect(TestImages.jpeg(width: 640, height: 480))
    #expect(header == ImageHeader(mime: "image/jpeg", width: 640, height: 480))
  }

  @Test func truncatedImagesAreRefused() {
    let png = TestImages.png(width: 8, height: 8)
    for cut in [9, 20, 33, png.count - 1] {
      #expect(throws: ImageHeader.Problem.truncated, "PNG cut at \(cut)") { try ImageHeader.inspect(png.prefix(cut)) }
    }
    let jpeg = TestImages.jpeg(width: 8, height: 8)
    for cut in [4, 30, jpeg.count - 1] {
      #expect(throws: ImageHeader.Problem.truncated, "JPEG cut at \(cut)") { try ImageHeader.inspect(jpeg.prefix(cut)) }
    }
  }

  @Test func aFlippedByteFailsThePNGChecksum() {
    var png = TestImages.png(width: 8, height: 8)
    png[png.count / 2] ^= 0xFF
    #expect(throws: ImageHeader.Problem.damaged) { try ImageHeader.inspect(png) }
  }

  @Test func textAndEmptinessAreNotImages() {
    #expect(throws: ImageHeader.Problem.notAnImage) { try ImageHeader.inspect(Data("GIF89a, or so it says".utf8)) }
    #expect(throws: ImageHeader.Problem.empty) { try ImageHeader.inspect(Data()) }
  }

  @Test func theRulesRefuseHugeDimensionsAndFiles() {
    #expect(throws: AvatarError.tooManyPixels(width: 100_000, height: 100_000)) {
      try AvatarRules.check(TestImages.pngHeaderOnly(width: 100_000, height: 100_000))
    }
    #expect(throws: Never.self) { try AvatarRules.check(TestImages.pngHeaderOnly(width: 4096, height: 4096)) }
    #expect(throws: AvatarError.tooLarge(bytes: 6 << 20)) {
      try AvatarRules.check(TestImages.jpeg(width: 10, height: 10, padding: 6 << 20).prefix(6 << 20))
    }
  }
}

@Suite struct BloodTypeTests {
  @Test func everyTypeParsesAndZeroMeansO() throws {
    for text in ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"] {
      #expect(BloodType(text)?.description == text)
    }
    #expect(BloodType("0+") == BloodType(group: .o, rhesusPositive: true))
    #expect(BloodType("ab-") == BloodType(group: .ab, rhesusPositive: false))
    for bad in ["", "A", "C+", "AB", "+", "O+-", "A +x"] {
      #expect(BloodType(bad) == nil, "\(bad)")
    }
  }
}
