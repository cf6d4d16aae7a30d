import Testing
@testable import CrispGraphics

/// The rasterizer turns a row's running sums into alpha four at a time for the non-zero rule;
/// that path must give exactly the bytes of the one-sum rule it stands for.
@Suite struct AlphaRuleTests {
    /// `NonZeroRule.alphas` over `values` against `NonZeroRule.alpha` on each.
    static func mismatches(_ values: [Float]) -> [(Float, UInt8, UInt8)] {
        // The buffers extend three elements beyond the count, as the rule requires.
        let sums = values + [0, 0, 0]
        var out = [UInt8](repeating: 0, count: values.count + 3)
        sums.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                NonZeroRule.alphas(s.baseAddress!, count: values.count, into: o.baseAddress!)
            }
        }
        return values.indices.compactMap { i in
            let expected = NonZeroRule.alpha(values[i])
            return out[i] == expected ? nil : (values[i], out[i], expected)
        }
    }

    @Test func fourAtATimeMatchesOneAtATimeNearEveryLevel() {
        // Where t = |sum|·255 + 0.5 crosses an integer the truncation changes: 64 floats on each
        // side of every k/255 (and of k/255 − 0.5/255, where rounding ties), both signs.
        var values: [Float] = []
        for k in 0...255 {
            for centre in [Float(k) / 255, (Float(k) - 0.5) / 255] where centre >= 0 {
                var v = centre
                for _ in 0..<64 { v = v.nextDown }
                for _ in 0..<129 {
                    values.append(v)
                    values.append(-v)
                    v = v.nextUp
                }
            }
        }
        let bad = Self.mismatches(values)
        #expect(bad.isEmpty, "\(bad.count) of \(values.count) differ, first \(bad.prefix(3))")
    }

    @Test func fourAtATimeMatchesOneAtATimeOnASpreadOfFloats() {
        // Every 4099th bit pattern from 0 to 4 (both signs), and the special values.
        var values: [Float] = [0, -0, 1, -1, 1.5, -2, 255, 1e30, -1e30, .leastNonzeroMagnitude,
                               .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                               Float(1).nextDown, Float(1).nextUp]
        var bits: UInt32 = 0
        while bits <= Float(4).bitPattern {
            values.append(Float(bitPattern: bits))
            values.append(-Float(bitPattern: bits))
            bits += 4099
        }
        let bad = Self.mismatches(values)
        #expect(bad.isEmpty, "\(bad.count) of \(values.count) differ, first \(bad.prefix(3))")
    }

    @Test(arguments: [1, 2, 3, 5, 6, 7])
    func countsThatAreNotAMultipleOfFourWriteEveryByte(count: Int) {
        let values = (0..<count).map { Float($0 + 1) / Float(count + 1) }
        #expect(Self.mismatches(values).isEmpty)
    }
}
