import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

@Suite struct ShadowTests {
    /// Regression: the shadow buffer was cut at the shape's own bounds, so a shape drawn off the
    /// canvas cast a hard-edged, square-cornered shadow.
    @Test func shadowOfAFarShapeSpreadsBeyondItsBounds() {
        let ctx = CGContext(width: 60, height: 40)!
        ctx.setShadow(offset: CGSize(width: 130, height: 0), blur: 8, color: CGColor(gray: 0, alpha: 1))
        ctx.fill(CGRect(x: -110, y: 15, width: 10, height: 10))   // the shadow lands on x 20…30
        // Centre of a 10-px square blurred with σ = 4: a Gaussian gives erf(5 / (4√2))² ≈ 0.62
        // (159); three box passes approximate it within about 10%.
        #expect(abs(ctx.alphaAt(25, 20) - 159) < 16)
        // σ = 4: the blur reaches well past the square's edge, fading smoothly.
        let profile = (30...38).map { ctx.alphaAt($0, 20) }
        #expect(profile.first! > 0 && profile.last! < profile.first!)
        #expect(zip(profile, profile.dropFirst()).allSatisfy { $1 <= $0 })
        #expect(ctx.alphaAt(34, 20) > 5)
    }

    @Test func shadowIsSavedAndRestoredAndClearedByNilColor() {
        let ctx = CGContext(width: 30, height: 30)!
        ctx.saveGState()
        ctx.setShadow(offset: CGSize(width: 5, height: -5), blur: 0)
        #expect(ctx.gstate.shadow != nil)
        ctx.restoreGState()
        #expect(ctx.gstate.shadow == nil)
        ctx.setShadow(offset: CGSize(width: 5, height: 5), blur: 2, color: nil)
        #expect(ctx.gstate.shadow == nil)
    }

    /// Technical Q&A 1706: shadows are defined in base space. A bitmap context's base space is
    /// y up, so a positive height casts the shadow up; a UIKit context has its flip (and scale)
    /// in base space, so the same offset casts it down, scaled to device pixels.
    @Test(arguments: [(CGFloat(1), false), (1, true), (2, true)])
    func shadowOffsetFollowsTheBaseSpace(scale: CGFloat, flipped: Bool) {
        let ctx = CGContext(width: 80, height: 80)!
        if flipped {
            ctx.setBaseTransform(CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: 0, ty: 80))
            #expect(ctx.ctm == ctx.baseTransform)
        }
        ctx.setShadow(offset: CGSize(width: 0, height: 5), blur: 0, color: CGColor(gray: 0, alpha: 1))
        let top = flipped ? 15 * scale : 80 - 25 * scale   // the square's top row, from the top
        ctx.fill(CGRect(x: 15, y: 15, width: 10, height: 10))
        let x = Int(20 * scale), side = 10 * scale, shift = 5 * scale
        if flipped {
            // Down: the shadow shows below the square's bottom edge, not above its top.
            #expect(ctx.pixelAt(x, Int(top + side + shift - 1)) == 0xFF00_0000)
            #expect(ctx.pixelAt(x, Int(top + side + shift)) == 0)
            #expect(ctx.pixelAt(x, Int(top - 1)) == 0)
        } else {
            #expect(ctx.pixelAt(x, Int(top - shift)) == 0xFF00_0000)
            #expect(ctx.pixelAt(x, Int(top - shift - 1)) == 0)
            #expect(ctx.pixelAt(x, Int(top + side)) == 0)
        }
    }

    @Test func defaultShadowIsBlackAtOneThird() {
        let ctx = CGContext(width: 30, height: 30)!
        ctx.setShadow(offset: CGSize(width: 10, height: -10), blur: 0)
        ctx.fill(CGRect(x: 2, y: 18, width: 8, height: 8))
        // Shadow pixel: black at alpha 85 (1/3), 10 right and 10 down.
        #expect(ctx.pixelAt(16, 16) == 0x5500_0000)
        #expect(ctx.pixelAt(5, 6) == 0xFF00_0000)
    }

    @Test(arguments: [CGFloat(-5), 0, 1e9, .nan, .infinity])
    func absurdBlurIsDefined(blur: CGFloat) {
        let ctx = CGContext(width: 40, height: 40)!
        ctx.setShadow(offset: CGSize(width: 3, height: 3), blur: blur)
        ctx.fillEllipse(in: CGRect(x: 10, y: 10, width: 20, height: 20))
        #expect(ctx.alphaAt(20, 20) == 255)
    }

    /// The blur as first written: each pass a running sum over a copy of the line, divided in
    /// 64 bits, and the vertical passes through a copied-out column. Slow and plain.
    static func referenceBlur(_ values: [UInt8], width w: Int, height h: Int, sigma: CGFloat) -> [UInt8] {
        var v = values
        func box(_ line: inout [UInt8], _ p: BoxBlur.Pass) {
            let n = line.count, inv = (UInt64(1) << 24) / UInt64(p.left + p.right + 1) + 1
            let copy = line
            var sum: UInt64 = 0
            for i in 0...min(p.right, n - 1) { sum += UInt64(copy[i]) }
            for i in 0..<n {
                line[i] = UInt8(truncatingIfNeeded: (sum * inv + (1 << 23)) >> 24)
                if i + p.right + 1 < n { sum += UInt64(copy[i + p.right + 1]) }
                if i - p.left >= 0 { sum -= UInt64(copy[i - p.left]) }
            }
        }
        let passes = BoxBlur.passes(sigma: sigma)
        for y in 0..<h {
            var row = Array(v[y * w..<(y + 1) * w])
            for p in passes { box(&row, p) }
            v.replaceSubrange(y * w..<(y + 1) * w, with: row)
        }
        for x in 0..<w {
            var column = (0..<h).map { v[$0 * w + x] }
            for p in passes { box(&column, p) }
            for y in 0..<h { v[y * w + x] = column[y] }
        }
        return v
    }

    /// The row-wise vertical passes and the 32-bit means must reproduce the plain blur exactly:
    /// the paint goldens encode its rounding.
    @Test(arguments: [CGFloat(0.6), 1, 1.3, 2.5, 4, 7.7, 16, 40, 120])
    func blurMatchesThePlainBlurExactly(sigma: CGFloat) {
        var rng = SplitMix64(seed: 7)
        for (w, h) in [(1, 1), (1, 9), (13, 1), (37, 23), (5, 120), (300, 3)] {
            let mask = ClipMask(bounds: PixelRect(x: 3, y: -2, maxX: 3 + w, maxY: -2 + h))
            // Mostly hard 0/255 values with some soft ones, like rasterized shapes.
            for i in 0..<(w * h) {
                let r = rng.next() % 4
                mask.data[i] = r == 0 ? 0 : r == 1 ? 255 : UInt8(truncatingIfNeeded: rng.next())
            }
            let input = Array(UnsafeBufferPointer(start: mask.data, count: w * h))
            BoxBlur.blur(mask, sigma: sigma)
            let actual = Array(UnsafeBufferPointer(start: mask.data, count: w * h))
            #expect(actual == Self.referenceBlur(input, width: w, height: h, sigma: sigma), "\(w)×\(h) σ \(sigma)")
        }
    }

    /// The 32-bit product in the mean gives the 64-bit result up to the widest box σ can ask for.
    @Test func fixedPointMeanMatches64BitsForEveryBoxWidth() {
        let widest = BoxBlur.passes(sigma: BoxBlur.maximumSigma).map { $0.left + $0.right + 1 }.max()!
        for n in 1...widest {
            let divider = BoxBlur.Divider(BoxBlur.Pass(left: n - 1, right: 0))
            for sum in [0, n / 2, n * 128 - 1, n * 255 - n / 2, n * 255] {
                let wide = (UInt64(sum) * UInt64(divider.inv) + (1 << 23)) >> 24
                #expect(UInt64(divider.mean(UInt32(sum))) == wide, "n \(n) sum \(sum)")
            }
        }
    }

    @Test func everyRadiusBlursInThreeBoxPasses() {
        // The box passes are running sums (per-pixel cost independent of σ): three whatever σ.
        #expect(BoxBlur.passes(sigma: 1).count == 3 && BoxBlur.passes(sigma: 100).count == 3)
        #expect(BoxBlur.passes(sigma: 0.1).isEmpty)
    }
}
