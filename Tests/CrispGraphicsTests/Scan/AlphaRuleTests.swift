import Testing
@_spi(Testing) @testable import CrispGraphics

/// The rasterizer turns a row's running sums into alpha four at a time (`AlphaRule.alphas`,
/// after `Rasterizer.prefixSums`); that path must give exactly the bytes of the one-sum rule.
@Suite struct AlphaRuleTests {
    /// `R.alphas` over `values`, four at a time, against `R.alpha` on each.
    static func mismatches<R: AlphaRule>(_: R.Type, _ values: [Int32]) -> [(Int32, Int32, UInt8)] {
        var bad: [(Int32, Int32, UInt8)] = []
        var i = 0
        while i < values.count {
            var lanes = SIMD4<Int32>(repeating: 0)
            for k in 0..<4 where i + k < values.count { lanes[k] = values[i + k] }
            let got = R.alphas(lanes)
            for k in 0..<4 where i + k < values.count {
                let want = R.alpha(values[i + k])
                if UInt8(truncatingIfNeeded: got[k]) != want { bad.append((values[i + k], got[k], want)) }
            }
            i += 4
        }
        return bad
    }

    /// Every sum within five pixels' worth of coverage, both signs, and the extremes.
    static let values: [Int32] = Array(-5 * Rasterizer.fullCoverage...5 * Rasterizer.fullCoverage)
        + [.min, .min + 1, .max, .max - 1, 1 << 30, -(1 << 30)]

    @Test func fourAtATimeMatchesOneAtATimeForEveryRule() {
        for (name, bad) in [("non-zero", Self.mismatches(NonZeroRule.self, Self.values)),
                            ("even-odd", Self.mismatches(EvenOddRule.self, Self.values)),
                            ("non-zero aliased", Self.mismatches(AliasedRule<NonZeroRule>.self, Self.values)),
                            ("even-odd aliased", Self.mismatches(AliasedRule<EvenOddRule>.self, Self.values))] {
            #expect(bad.isEmpty, "\(name): \(bad.count) of \(Self.values.count) differ, first \(bad.prefix(3))")
        }
    }

    @Test func levelsRoundToNearest() {
        let full = Rasterizer.fullCoverage
        for sum in stride(from: -2 * full, through: 2 * full, by: 97) {
            let covered = min(abs(Double(sum)) / Double(full), 1)
            #expect(Int(NonZeroRule.alpha(sum)) == Int((covered * 255).rounded(.down) + ((covered * 255).truncatingRemainder(dividingBy: 1) >= 0.5 ? 1 : 0)),
                    "non-zero \(sum)")
            var folded = abs(Double(sum)).truncatingRemainder(dividingBy: 2 * Double(full)) / Double(full)
            if folded > 1 { folded = 2 - folded }
            #expect(Int(EvenOddRule.alpha(sum)) == Int((folded * 255 + 0.5).rounded(.down)), "even-odd \(sum)")
        }
        #expect(NonZeroRule.alpha(full) == 255 && NonZeroRule.alpha(-3 * full) == 255 && NonZeroRule.alpha(0) == 0)
        #expect(EvenOddRule.alpha(full) == 255 && EvenOddRule.alpha(2 * full) == 0 && EvenOddRule.alpha(-full) == 255)
    }

    @Test func prefixSumsAddEveryEarlierLaneAndTheCarry() {
        let v = SIMD4<Int32>(3, -7, 100, 5)
        #expect(Rasterizer.prefixSums(v, 1000) == SIMD4(1003, 996, 1096, 1101))
        #expect(Rasterizer.prefixSums(.zero, -4) == SIMD4(repeating: -4))
    }
}
