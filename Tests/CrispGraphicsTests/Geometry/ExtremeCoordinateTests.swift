import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Regressions from coverage-guided fuzzing (issue 16): coordinates and fonts that trapped the
/// process. Each test names the bug it pins down, with the exact input that broke.
@Suite struct ExtremeCoordinateTests {
    /// `segmentCount` converted Wang's estimate to Int before clamping it, so a curve bent
    /// beyond ~1e37 device pixels trapped (`<path d="M2E96 4S2..9 2..4"/>`).
    /// The drawing harness's slow unit (session 7: 53 s of CPU under ASan): a path holding the
    /// Bézier circle of an arc of radius 2.7·10⁵⁷, stroked 10⁻⁶ wide with round joins, its
    /// outline kept as a path and stroked again. A pen thinner than the tolerance had an arc
    /// step of a whole turn, which no join's turn reaches, so every join took all 1024 steps
    /// (8.4 M elements from 7, then 16.8 M). The step is now at most a half turn.
    @Test(arguments: [1e-6, 1, 30])
    func outlinesKeptAsPathsHaveBoundedJoins(width: CGFloat) {
        func count(_ p: CGPath?) -> Int { p?.elements.count ?? 0 }
        let ctx = CGContext(width: 8, height: 8)!
        ctx.concatenate(CGAffineTransform(a: 4.856201171875, b: 2.9560546875, c: -2.314453125, d: -3.375732421875, tx: 1125.703125, ty: 116.53125))
        ctx.setLineWidth(width)
        ctx.setLineJoin(.round)
        ctx.setLineCap(.round)
        ctx.move(to: CGPoint(x: -176.19713189254696, y: -89.9309230458494))
        ctx.addLine(to: CGPoint(x: -215.13552817612603, y: -137.82750959402148))
        ctx.addLine(to: CGPoint(x: -2.5475150613499505e+57, y: 9.095422970416332e+56))
        ctx.addCurve(to: CGPoint(x: -9.09542297041629e+56, y: -2.547515061349953e+57),
                     control1: CGPoint(x: -3.049841401332115e+57, y: -4.97411421306203e+56), control2: CGPoint(x: -2.3164960153894663e+57, y: -2.045188721367792e+57))
        ctx.addCurve(to: CGPoint(x: 2.5475150613499547e+57, y: -9.095422970416235e+56),
                     control1: CGPoint(x: 4.974114213062075e+56, y: -3.0498414013321133e+57), control2: CGPoint(x: 2.0451887213677954e+57, y: -2.316496015389461e+57))
        ctx.addCurve(to: CGPoint(x: 9.095422970416203e+56, y: 2.547515061349955e+57),
                     control1: CGPoint(x: 3.049841401332114e+57, y: 4.974114213062141e+56), control2: CGPoint(x: 2.316496015389459e+57, y: 2.0451887213677996e+57))
        ctx.addCurve(to: CGPoint(x: -2.5475150613499575e+57, y: 9.095422970416151e+56),
                     control1: CGPoint(x: -4.97411421306218e+56, y: 3.049841401332112e+57), control2: CGPoint(x: -2.0451887213678038e+57, y: 2.316496015389454e+57))
        ctx.replacePathWithStrokedPath()
        let once = count(ctx.path)
        #expect(once > 0 && once < 200_000, "\(once) elements")
        ctx.replacePathWithStrokedPath()
        #expect(count(ctx.path) < 1_000_000, "\(count(ctx.path)) elements")
    }

    /// A drawn stroke thinner than the tolerance: its round joins add no steps (they took 1024
    /// each, per vertex, before the step was bounded by a half turn).
    @Test func aPenThinnerThanTheToleranceAddsNoJoinSteps() {
        let zigzag = polylinePath((0..<100).map { CGPoint(x: CGFloat($0), y: CGFloat($0 % 2) * 3) })
        var sink = CountingSink()
        strokeOutline(zigzag, style: StrokeStyle(width: 1e-3, cap: .round, join: .round), tolerance: 0.25,
                      transform: .identity, into: &sink)
        #expect(sink.lines < 1000, "\(sink.lines) lines for 99 segments")
    }

    @Test func curveBentBeyondIntRangeDoesNotTrap() {
        let ctx = CGContext(width: 16, height: 16)!
        ctx.move(to: CGPoint(x: 2e96, y: 4))
        ctx.addCurve(to: CGPoint(x: 0.4, y: 2), control1: CGPoint(x: 2e96, y: 4), control2: CGPoint(x: 2, y: 0.9))
        ctx.fillPath()
        ctx.move(to: CGPoint(x: 0, y: 0))
        ctx.addQuadCurve(to: CGPoint(x: 8, y: 8), control: CGPoint(x: 1e300, y: -1e300))
        ctx.fillPath()
        ctx.addEllipse(in: CGRect(x: -1e38, y: -1e38, width: 2e38, height: 2e38))
        ctx.strokePath()
        ctx.setLineDash(phase: 0, lengths: [3, 2])
        ctx.move(to: CGPoint(x: 0, y: 0))
        ctx.addCurve(to: CGPoint(x: 8, y: 8), control1: CGPoint(x: 1e200, y: 0), control2: CGPoint(x: 0, y: 1e200))
        ctx.strokePath()
        #expect(ctx.rasterizer.isEmpty)
    }

    /// `CGPath.segmentCount` alone: estimates beyond Int's range, infinite or NaN clamp.
    @Test(arguments: [1e37, 1e300, CGFloat.infinity, CGFloat.nan])
    func segmentCountClampsBeforeConverting(secondDifference: CGFloat) {
        #expect(CGPath.segmentCount(secondDifference: secondDifference, factor: 0.75, tolerance: 0.25)
                == maximumSegmentsPerCurve)
    }

    /// Clipping the nearly flat line of `<path d="M0 0L1e40 1"/>` left a piece whose height is
    /// subnormal as a Float: its slope became ∞, 0 × ∞ = NaN reached `Int()` in the sweep.
    @Test func nearlyFlatLineDoesNotTrap() {
        // y up: user y 16 is raster row 0, where the clipped piece's height is subnormal.
        let ctx = CGContext(width: 16, height: 16)!
        ctx.move(to: CGPoint(x: 0, y: 16))
        ctx.addLine(to: CGPoint(x: 1e40, y: 15))
        ctx.fillPath()
        ctx.move(to: CGPoint(x: 3, y: 5))
        ctx.addLine(to: CGPoint(x: 12, y: 5 + 1e-40))
        ctx.addLine(to: CGPoint(x: 3, y: 5 + 2e-40))
        ctx.fillPath()
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
    }

    /// Coordinates near Double's limit: differences overflow, yet the visible part is exact.
    /// The slanted edge crosses the canvas at y = 10 with a slope of 1e-299, so the band above
    /// it (user space, y up: raster rows 0–9) is filled and the rows below it are not.
    @Test func coordinatesNearDoubleRangeClipExactly() {
        let ctx = CGContext(width: 20, height: 20)!
        ctx.addLines(between: [CGPoint(x: -1e300, y: 0), CGPoint(x: 1e300, y: 20),
                               CGPoint(x: 1e300, y: 100), CGPoint(x: -1e300, y: 100)])
        ctx.fillPath()
        for y in 0..<20 {
            let row = (0..<20).map { ctx.alphaAt($0, y) }
            #expect(row.allSatisfy { $0 == (y < 10 ? 255 : 0) }, "raster row \(y): \(row)")
        }
        let extreme = CGContext(width: 8, height: 8)!
        extreme.addLines(between: [CGPoint(x: -1.7e308, y: -1.7e308), CGPoint(x: 1.7e308, y: -1.7e308),
                                   CGPoint(x: 0, y: 1.7e308)])
        extreme.fillPath()
        #expect(extreme.alphas.allSatisfy { $0 == 255 })
    }

    /// Fonts whose glyphs reach far outside the em asked the glyph cache for bitmaps of
    /// gigabytes at 20 px: `huge-notdef.ttf` (616 bytes, unitsPerEm 16, `.notdef` a diamond
    /// spanning ±32000 units: 6.4 GB) and `nested-composites.ttf` (928 bytes, eight levels of
    /// composites each scaling by 1.99). Such glyphs are drawn as outlines, clipped to the canvas
    /// (which they cover), and nothing larger than the cache's budget is kept.
    @Test(arguments: ["huge-notdef.ttf", "nested-composites.ttf"])
    func glyphFarOutsideItsEmDrawsAsOutline(font: String) throws {
        let face = try TrueTypeFont(data: TestFonts.fixtureBytes(font))
        let ctx = CGContext(width: 32, height: 32)!
        ctx.glyphCache = GlyphCache(byteBudget: 1 << 20)
        CTLine(string: "A", font: CTFont(face: face, size: 20)).draw(in: ctx)
        #expect(ctx.alphas.allSatisfy { $0 == 255 })
        #expect(ctx.glyphCache.usage.bytes <= 1 << 20)
    }

    /// Fuzzing (the drawing-API harness): an image drawn into a rectangle so small that it is
    /// minified by an infinite factor made the mipmap level `Int(log2(∞))`, a trap.
    @Test(arguments: [CGInterpolationQuality.default, .medium, .high])
    func imageSqueezedToNothingDoesNotTrap(quality: CGInterpolationQuality) {
        let ctx = CGContext(width: 8, height: 8)!
        ctx.interpolationQuality = quality
        let image = CGImage(width: 4, height: 4, pixels: [UInt32](repeating: 0xFF00_80FF, count: 16))
        ctx.draw(image, in: CGRect(x: 1, y: 1, width: 1e-300, height: 1e-300))
        ctx.draw(image, in: CGRect(x: 1, y: 1, width: 5e-324, height: 5e-324))
        ctx.draw(image, in: CGRect(x: 1, y: 1, width: 1e-300, height: 3), byTiling: true)
        #expect(ctx.makeImage() != nil)
    }

    /// Fuzzing (the drawing-API harness), a hang: the dasher measured curves in absolute
    /// coordinates, so each sample of this radius-92 arc at y ≈ 2.7e57 was off by an ulp there
    /// (≈ 3.5e41) and the arc measured ≈ 1.4e43 long — past the control-polygon estimate that
    /// bounds the dash count at 10⁶ — and the dash loop ran for ever, feeding the stroker.
    /// The calls are those of the 250-byte input, minimized (line width and miter limit, other
    /// dashes, gradients and layers played no part).
    @Test func dashedArcFarFromTheOriginDoesNotHang() {
        let y = CGFloat(bitPattern: 0x4bdb_90d1_2a4b_1598)   // 2.7036351660687415e57
        let ctx = CGContext(width: 29, height: 30)!
        ctx.setLineDash(phase: -63.75, lengths: [165.5])
        ctx.addArc(center: CGPoint(x: -23.5, y: y), radius: 91.75, startAngle: -25.75, endAngle: 93, clockwise: false)
        let arc = ctx.path!
        ctx.strokePath()
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
        // The work: the arc runs 4 × 91.75 = 367 along x, so the pattern (off 63.75, on 165.5,
        // off 165.5) leaves one dash, and the stroke one outline (the old code: ≈ 4e40 dashes).
        var sink = CountingSink()
        strokeOutline(arc, style: StrokeStyle(width: 1, dashPhase: -63.75, dashLengths: [165.5]), tolerance: 0.25,
                      transform: .identity, into: &sink)
        #expect(sink.moves == 1)
        #expect(dashSummary(arc.copy(dashingWithPhase: -63.75, lengths: [165.5])).count == 1)
    }

    /// The invariant behind `dashedArcFarFromTheOriginDoesNotHang`: dashing does not depend on
    /// where a path lies. The arc is flat at these heights (its y offsets are below an ulp), so
    /// moved to y = 0 it is the same curve exactly, and must dash into the same pieces.
    @Test(arguments: [1e20, CGFloat(bitPattern: 0x4bdb_90d1_2a4b_1598)])
    func dashesOfAFlatArcDoNotDependOnItsHeight(y: CGFloat) {
        let far = CGMutablePath()
        far.addArc(center: CGPoint(x: -23.5, y: y), radius: 91.75, startAngle: -25.75, endAngle: 93, clockwise: false)
        #expect(far.points.allSatisfy { $0.y == y })
        var down = CGAffineTransform(translationX: 0, y: -y)
        let near = far.copy(using: &down)!
        let farDashes = dashSummary(far.copy(dashingWithPhase: -63.75, lengths: [165.5]))
        let nearDashes = dashSummary(near.copy(dashingWithPhase: -63.75, lengths: [165.5]))
        #expect(farDashes.count == nearDashes.count)
        for (f, n) in zip(farDashes, nearDashes) {
            #expect(isClose(f.start.x, n.start.x) && isClose(f.end.x, n.end.x), "\(f) vs \(n)")
        }
    }
}
