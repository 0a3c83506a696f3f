import Core
import Foundation
import Testing

@Suite struct FixedDecimalsTests {
  /// What printf writes wherever the double is not within a rounding error of a half; at a
  /// half as written (5.55), the half rounded up as a person does.
  @Test func matchesPrintfAwayFromHalvesAndRoundsWrittenHalvesUp() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let value = Double.random(in: -5000...5000, using: &generator)
      let decimals = Int.random(in: 0...4, using: &generator)
      var scale = 1.0
      for _ in 0..<decimals { scale *= 10 }
      let fraction = abs(value * scale) - abs(value * scale).rounded(.down)
      // printf keeps the sign of a negative that rounds to zero (-0.0); a person would not.
      guard abs(fraction - 0.5) > 1e-6, value >= 0 || abs(value * scale) >= 0.5 else { continue }
      #expect(HumanText.fixed(value, decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value)")
    }
    #expect(HumanText.fixed(5.55, decimals: 1) == "5.6" && HumanText.fixed(-0.04, decimals: 1) == "0.0")
    #expect(HumanText.fixed(2.5, decimals: 0) == "3" && HumanText.fixed(0.05, decimals: 2) == "0.05")
    #expect(
      HumanText.fixed(-12.345, decimals: 2) == "-12.35" && HumanText.fixed(1e13, decimals: 1) == "10000000000000.0")
  }
}
