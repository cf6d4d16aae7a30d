import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// `drawTransformed`, the fast path for turned images, against `draw(_:in:)`: close to it under a
/// rotation (a few levels inside, an edge's coverage approximated), exactly it where it falls back.
@Suite struct TransformedImageTests {
    /// A 150×110 image with smooth gradients, sharp stripes and a translucent corner.
    static let picture: CGImage = {
        let w = 150, h = 110
        var px = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var r = UInt32(x * 255 / (w - 1)), g = UInt32(y * 255 / (h - 1)), b: UInt32 = 128
                if (x / 7) % 3 == 0 { r = 20; g = 30; b = 220 }
                if x > 120 && y > 80 { r = r / 2; g = g / 2; b = b / 2; px[y * w + x] = 0x8000_0000 | r << 16 | g << 8 | b; continue }
                px[y * w + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return CGImage(width: w, height: h, pixels: px)
    }()

    /// A canvas with a patterned background, so blending shows.
    static func canvas() -> CGContext {
        let ctx = CGContext(width: 240, height: 200)!
        ctx.setFillColor(CGColor(red: 0.9, green: 0.85, blue: 0.7, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 240, height: 200))
        ctx.setFillColor(CGColor(red: 0.1, green: 0.4, blue: 0.3, alpha: 1))
        for i in stride(from: 0, to: 240, by: 24) { ctx.fill(CGRect(x: CGFloat(i), y: 0, width: 9, height: 200)) }
        return ctx
    }

    /// Draws the picture turned by `angle` about the canvas centre, scaled by `scale`, with `alpha`.
    static func render(angle: CGFloat, scale: CGFloat, alpha: CGFloat, quality: CGInterpolationQuality = .default,
                       fast: Bool, clip: CGRect? = nil) -> CGContext {
        let ctx = canvas()
        if let clip { ctx.clip(to: clip) }
        ctx.interpolationQuality = quality
        ctx.setAlpha(alpha)
        ctx.translateBy(x: 120, y: 100)
        ctx.rotate(by: angle)
        ctx.scaleBy(x: scale, y: scale)
        let rect = CGRect(x: -75, y: -55, width: 150, height: 110)
        if fast { ctx.drawTransformed(picture, in: rect) } else { ctx.draw(picture, in: rect) }
        return ctx
    }

    /// The largest channel difference between the two contexts, and how many pixels differ by
    /// more than `interior` levels.
    static func compare(_ a: CGContext, _ b: CGContext, interior: UInt32) -> (maximum: UInt32, beyond: Int) {
        var maximum: UInt32 = 0, beyond = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixelAt(x, y), q = b.pixelAt(x, y)
                var d: UInt32 = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    let u = (p >> UInt32(shift)) & 0xFF, v = (q >> UInt32(shift)) & 0xFF
                    d = max(d, u > v ? u - v : v - u)
                }
                maximum = max(maximum, d)
                if d > interior { beyond += 1 }
            }
        }
        return (maximum, beyond)
    }

    @Test(arguments: [(CGFloat.pi / 7, CGFloat(1), CGFloat(1)), (0.3, 1.3, 1), (-1.1, 0.8, 0.6), (CGFloat.pi / 4, 1, 0.35),
                      (2.5, 1.1, 1)])
    func turnedDrawIsCloseToTheGeneralPath(angle: CGFloat, scale: CGFloat, alpha: CGFloat) {
        let general = Self.render(angle: angle, scale: scale, alpha: alpha, fast: false)
        let fast = Self.render(angle: angle, scale: scale, alpha: alpha, fast: true)
        // Inside, sampling agrees within rounding; only the edge pixels' coverage differs more
        // (clamp(distance + ½) against the exact area), by at most a sixth of full coverage.
        let (maximum, beyond) = Self.compare(general, fast, interior: 3)
        #expect(maximum <= 44, "largest difference \(maximum)")
        // The outline is about 2·(150 + 110)·scale pixels long; only (part of) it may differ more.
        #expect(beyond <= Int(2 * 260 * scale * 1.2), "\(beyond) pixels beyond 3 levels")
    }

    @Test func nearestSamplingAndAClipRectangle() {
        let clip = CGRect(x: 50, y: 40, width: 120, height: 90)
        let general = Self.render(angle: 0.7, scale: 1.2, alpha: 1, quality: .none, fast: false, clip: clip)
        let fast = Self.render(angle: 0.7, scale: 1.2, alpha: 1, quality: .none, fast: true, clip: clip)
        let (maximum, beyond) = Self.compare(general, fast, interior: 0)
        #expect(maximum <= 255)
        // Nearest sampling picks the same pixel except where a centre lies within rounding of a
        // pixel boundary, and along the edges.
        #expect(beyond <= 700, "\(beyond) pixels differ")
        // Nothing outside the clip changes.
        let background = Self.canvas()
        for y in 0..<200 {
            for x in 0..<240 where !(x >= 50 && x < 170 && y >= 70 && y < 160) {
                #expect(fast.pixelAt(x, y) == background.pixelAt(x, y))
            }
        }
    }

    @Test(arguments: [CGFloat(1), 0.5])
    func quarterTurnsAreExactlyTheGeneralPath(alpha: CGFloat) {
        for quarters in 0..<4 {
            let angle = CGFloat(quarters) * .pi / 2
            #expect(Self.compare(Self.render(angle: angle, scale: 1, alpha: alpha, fast: false),
                                 Self.render(angle: angle, scale: 1, alpha: alpha, fast: true), interior: 0).maximum == 0)
        }
    }

    @Test func fallsBackUnderAClipMaskABlendModeAShadowAndHighQuality() {
        func both(_ setup: (CGContext) -> Void) -> (CGContext, CGContext) {
            let contexts = (Self.canvas(), Self.canvas())
            for (ctx, fast) in [(contexts.0, false), (contexts.1, true)] {
                setup(ctx)
                ctx.translateBy(x: 120, y: 100)
                ctx.rotate(by: 0.4)
                let rect = CGRect(x: -75, y: -55, width: 150, height: 110)
                if fast { ctx.drawTransformed(Self.picture, in: rect) } else { ctx.draw(Self.picture, in: rect) }
            }
            return contexts
        }
        let cases: [(CGContext) -> Void] = [
            { $0.addEllipse(in: CGRect(x: 30, y: 20, width: 180, height: 150)); $0.clip() },
            { $0.setBlendMode(.multiply) },
            { $0.setShadow(offset: CGSize(width: 4, height: -4), blur: 3) },
            { $0.interpolationQuality = .high },
            { $0.setShouldAntialias(false) },
        ]
        for setup in cases {
            let (a, b) = both(setup)
            #expect(Self.compare(a, b, interior: 0).maximum == 0)
        }
    }

    @Test func absurdInputDrawsNothingOrFallsBack() {
        let ctx = Self.canvas()
        let before = ctx.makeImage()!.pixels
        ctx.rotate(by: 0.5)
        ctx.drawTransformed(Self.picture, in: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10))
        ctx.drawTransformed(Self.picture, in: CGRect(x: 0, y: 0, width: 0, height: 10))
        ctx.drawTransformed(Self.picture, in: CGRect(x: 1e300, y: -1e300, width: 1e300, height: 1e300))
        ctx.setAlpha(0)
        ctx.drawTransformed(Self.picture, in: CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(ctx.makeImage()!.pixels == before)
    }
}
