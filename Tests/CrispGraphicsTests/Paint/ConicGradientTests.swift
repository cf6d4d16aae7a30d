import CrispTestSupport
import Foundation
import Testing
@testable import CrispGraphics

/// `drawConicGradient` and the conic paint COLR's sweep gradients use.
@Suite struct ConicGradientTests {
    /// The polynomial arctangent agrees with Foundation's `atan2` within its stated bound, on
    /// the axes, the diagonals, the centre and random offsets of every size.
    @Test func anglesMatchAtan2() {
        var random = SplitMix64(seed: 11)
        var worst = 0.0
        var cases: [(Double, Double)] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, 1), (-1, -1), (1, -1), (0, 0),
                                         (1e-300, 1), (1, 1e-300), (-0.0, -1), (3, 4), (-4, 3)]
        for _ in 0..<20_000 {
            let scale = pow(10, Double.random(in: -6...6, using: &random))
            cases.append((Double.random(in: -1...1, using: &random) * scale, Double.random(in: -1...1, using: &random) * scale))
        }
        for (y, x) in cases {
            let expected = x == 0 && y == 0 ? 0 : atan2(y, x)
            let got = ConicGradientPaint.angle(y, x)
            // atan2(±0, −1) is ±π; both name the same direction.
            let error = min(abs(got - expected), abs(abs(got - expected) - 2 * .pi))
            worst = max(worst, error)
        }
        #expect(worst <= 2.5e-7, "worst error \(worst) rad")
    }

    /// Straight (unpremultiplied) RGBA of the pixel at raster column x, row y.
    static func rgba(_ ctx: CGContext, _ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
        let p = ctx.makeImage()!.straightRGBA(x: x, y: y)
        return (Int(p.r), Int(p.g), Int(p.b), Int(p.a))
    }

    /// Every pixel of a black-to-white conic gradient is the grey of its own angle from the
    /// start angle, in user space's positive direction, under a rotated, flipped CTM: within one
    /// level (the table has 1024 entries), except within a pixel of the seam and the centre.
    @Test func eachPixelTakesTheGreyOfItsAngle() throws {
        let size = 96
        let ctx = try #require(CGContext(width: size, height: size))
        ctx.translateBy(x: 0, y: CGFloat(size))
        ctx.scaleBy(x: 1, y: -1)   // UIKit-style: y down
        ctx.translateBy(x: 48, y: 44)
        ctx.rotate(by: 0.3)
        let start: CGFloat = 1.1
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)],
                                               locations: nil))
        ctx.drawConicGradient(gradient, center: CGPoint(x: 2, y: -1), angle: start)
        let toUser = ctx.userSpaceToDeviceSpaceTransform.inverted()
        let image = try #require(ctx.makeImage())
        var checked = 0, worst = 0
        for y in 0..<size {
            for x in 0..<size {
                // Device space has y up from the bottom row, as in CoreGraphics.
                let p = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(size - y) - 0.5).applying(toUser)
                let dx = p.x - 2, dy = p.y + 1
                guard hypot(dx, dy) > 2 else { continue }
                var theta = atan2(dy, dx) - start
                theta -= (theta / (2 * .pi)).rounded(.down) * 2 * .pi
                let t = theta / (2 * .pi)
                // The seam: within about a pixel of location 0 / 1.
                guard t * hypot(dx, dy) * 2 * .pi > 1.5, (1 - t) * hypot(dx, dy) * 2 * .pi > 1.5 else { continue }
                let grey = Int(image.straightRGBA(x: x, y: y).r)
                worst = max(worst, abs(grey - Int((t * 255).rounded())))
                checked += 1
            }
        }
        #expect(checked > 8000)
        #expect(worst <= 1, "worst difference \(worst) levels")
    }

    /// The gradient paints the whole clip, under the clip's own shape, and respects the
    /// context's alpha.
    @Test func paintsTheClipWithTheContextsAlpha() throws {
        let ctx = try #require(CGContext(width: 40, height: 40))
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                                                          CGColor(red: 1, green: 0, blue: 0, alpha: 1)],
                                               locations: nil))
        ctx.clip(to: CGRect(x: 10, y: 10, width: 20, height: 20))
        ctx.setAlpha(0.5)
        ctx.drawConicGradient(gradient, center: CGPoint(x: 20, y: 20), angle: 0)
        let inside = ConicGradientTests.rgba(ctx, 15, 25), outside = ConicGradientTests.rgba(ctx, 5, 5)
        #expect(inside.0 == 255 && abs(inside.3 - 128) <= 1, "\(inside)")
        #expect(outside.3 == 0, "\(outside)")
    }

    /// Non-finite centres and angles draw nothing (and do not trap).
    @Test func nonFiniteArgumentsDrawNothing() throws {
        let ctx = try #require(CGContext(width: 8, height: 8))
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [CGColor(gray: 0, alpha: 1)], locations: nil))
        ctx.drawConicGradient(gradient, center: CGPoint(x: CGFloat.nan, y: 0), angle: 0)
        ctx.drawConicGradient(gradient, center: .zero, angle: .infinity)
        #expect(ConicGradientTests.rgba(ctx, 4, 4).3 == 0)
    }

    /// Pad, repeat and reflect beyond the table: the position each extend mode gives, at angles
    /// where the arc of the gradient covers a quarter turn.
    @Test func extendModesFoldThePosition() {
        let table = GradientTable(CGGradient(colorsSpace: nil, colors: [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)],
                                             locations: nil)!, alpha: 1)
        func paint(_ extend: ConicGradientPaint.Extend) -> ConicGradientPaint {
            ConicGradientPaint(table: table, toUser: .identity, center: .zero, origin: 0, scale: 2 / .pi, offset: 0, extend: extend)
        }
        // θ = 135°: s = 1.5.
        let dx = -1.0, dy = 1.0
        #expect(abs(paint(.pad).position(dx, dy) - 1) < 1e-6)
        #expect(abs(paint(.repeat).position(dx, dy) - 0.5) < 1e-6)
        #expect(abs(paint(.reflect).position(dx, dy) - 0.5) < 1e-6)
        // θ = 300°: s = 3.333…: repeat 0.333…, reflect 2 − 1.333… = 0.666…
        let a = 300.0 * .pi / 180
        #expect(abs(paint(.repeat).position(cos(a), sin(a)) - 1.0 / 3) < 1e-6)
        #expect(abs(paint(.reflect).position(cos(a), sin(a)) - 2.0 / 3) < 1e-6)
    }
}
