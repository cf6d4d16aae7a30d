import CrispTestSupport
import Foundation
import Testing
@testable import CrispGraphics

/// Gradient tables and the linear gradient's span loop.
@Suite struct GradientTests {
    /// The linear gradient's pixel rule as first written: every pixel through every branch.
    static func referenceShade(_ p: LinearGradientPaint, x: Int, y: Int, count: Int) -> [UInt32] {
        let start = p.a * (Float(x) + 0.5) + p.b * (Float(y) + 0.5) + p.c
        let first = p.table.entries[0], last = p.table.entries[GradientTable.size - 1]
        let k = p.pixelsPerUnit
        return (0..<count).map { i in
            let t = start + p.a * Float(i)
            if t >= 0 && t <= 1 {
                var color = p.table.lookup(t)
                if !p.extendBefore, t * k < 0.5 { color = Pixel.scale(color, by: UInt32((0.5 + t * k) * 255 + 0.5)) }
                if !p.extendAfter, (1 - t) * k < 0.5 { color = Pixel.scale(color, by: UInt32((0.5 + (1 - t) * k) * 255 + 0.5)) }
                return color
            } else if t < 0 {
                let s = -t * k
                return p.extendBefore ? first : (s < 0.5 ? Pixel.scale(first, by: UInt32((0.5 - s) * 255 + 0.5)) : Pixel.unpainted)
            } else {
                let s = (t - 1) * k
                return p.extendAfter ? last : (s < 0.5 ? Pixel.scale(last, by: UInt32((0.5 - s) * 255 + 0.5)) : Pixel.unpainted)
            }
        }
    }

    /// The span loop splits off the run of plain table lookups; every pixel must still be
    /// exactly what the per-pixel rule gives, whatever the direction, slope and extension.
    @Test(arguments: [false, true], [false, true])
    func linearSpansMatchThePerPixelRule(extendBefore: Bool, extendAfter: Bool) {
        var rng = SplitMix64(seed: 5)
        func random(_ range: ClosedRange<Float>) -> Float {
            Float(rng.next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound) + range.lowerBound
        }
        let table = PaintGoldenTests.redToBlue.table(alpha: 0.9)
        for trial in 0..<400 {
            // Gradient lengths from a fraction of a pixel to thousands; some vertical (a = 0).
            let length = Float(pow(10, Double(random(-0.5...3.5)))), angle = Double(random(-3.2...3.2))
            let a = trial % 10 == 0 ? 0 : Float(cos(angle)) / length, b = Float(sin(angle)) / length
            let paint = LinearGradientPaint(table: table, a: a, b: b, c: random(-2...2),
                                            extendBefore: extendBefore, extendAfter: extendAfter)
            let x = Int(rng.next() % 400) - 200, y = Int(rng.next() % 400) - 200, count = Int(rng.next() % 700) + 1
            var out = [UInt32](repeating: 0, count: count)
            out.withUnsafeMutableBufferPointer { paint.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
            #expect(out == Self.referenceShade(paint, x: x, y: y, count: count), "trial \(trial)")
        }
    }

    /// A gradient is immutable, so its table is sampled once per alpha and shared by draws.
    @Test func tablesAreSampledOncePerAlpha() {
        let g = CGGradient(colorsSpace: nil, colors: [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 0.5)], locations: nil)!
        let opaque = g.table(alpha: 1)
        #expect(g.table(alpha: 1) === opaque)
        let half = g.table(alpha: 0.5)
        #expect(half !== opaque && g.table(alpha: 0.5) === half)
        let fresh = GradientTable(g, alpha: 0.5)
        #expect((0..<GradientTable.size).allSatisfy { half.entries[$0] == fresh.entries[$0] })
        // Many alphas: the cache stays small and still answers correctly.
        for i in 0..<20 { _ = g.table(alpha: CGFloat(i) / 20) }
        #expect(g.table(alpha: 0.5).entries[GradientTable.size - 1] == fresh.entries[GradientTable.size - 1])
    }
}
