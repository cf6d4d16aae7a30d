import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Golden images of paint: gradients, shadows, PDF blend modes. (The embossed circle is the
/// essay's own `drawRect:` now, in CrispWidgets: `BubbleViewTests`.)
@Suite struct PaintGoldenTests {
    static let redToBlue = CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1),
                                                                 CGColor(red: 1, green: 0.85, blue: 0.2, alpha: 1),
                                                                 CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)],
                                      locations: [0, 0.4, 1])!

    @Test func linearGradientOptions() {
        let ctx = FillGoldenTests.canvas(160, 40)
        let options: [CGGradientDrawingOptions] = [[], [.drawsBeforeStartLocation], [.drawsAfterEndLocation],
                                                   [.drawsBeforeStartLocation, .drawsAfterEndLocation]]
        for (i, o) in options.enumerated() {
            let x = CGFloat(i * 40)
            ctx.saveGState()
            ctx.clip(to: CGRect(x: x + 2, y: 2, width: 36, height: 36))
            ctx.drawLinearGradient(Self.redToBlue, start: CGPoint(x: x + 12, y: 10), end: CGPoint(x: x + 28, y: 30), options: o)
            ctx.restoreGState()
        }
        Golden.check(ctx, "paint", "linear_gradient_options")
    }

    @Test func radialGradients() {
        let ctx = FillGoldenTests.canvas(160, 40)
        let both: CGGradientDrawingOptions = [.drawsBeforeStartLocation, .drawsAfterEndLocation]
        let cases: [(CGPoint, CGFloat, CGPoint, CGFloat, CGGradientDrawingOptions)] = [
            (CGPoint(x: 20, y: 20), 4, CGPoint(x: 20, y: 20), 16, []),          // concentric, annulus only
            (CGPoint(x: 60, y: 20), 4, CGPoint(x: 60, y: 20), 16, both),        // concentric, extended
            (CGPoint(x: 94, y: 26), 0, CGPoint(x: 100, y: 20), 16, []),         // focal point inside
            (CGPoint(x: 126, y: 20), 3, CGPoint(x: 146, y: 20), 10, both),      // start circle outside the end circle: a cone
        ]
        for (i, (c0, r0, c1, r1, o)) in cases.enumerated() {
            ctx.saveGState()
            ctx.clip(to: CGRect(x: CGFloat(i * 40) + 1, y: 1, width: 38, height: 38))
            ctx.drawRadialGradient(Self.redToBlue, startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1, options: o)
            ctx.restoreGState()
        }
        Golden.check(ctx, "paint", "radial_gradients")
    }

    @Test func gradientUnderRotationAndPathClip() {
        let ctx = FillGoldenTests.canvas(64, 64)
        ctx.translateBy(x: 32, y: 32)
        ctx.rotate(by: .pi / 5)
        ctx.addEllipse(in: CGRect(x: -28, y: -18, width: 56, height: 36))
        ctx.clip()
        ctx.drawLinearGradient(Self.redToBlue, start: CGPoint(x: -28, y: 0), end: CGPoint(x: 28, y: 0),
                               options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        Golden.check(ctx, "paint", "gradient_rotated_clipped")
    }

    @Test func slowGradientHasNoBanding() {
        // 1000 px from gray 100 to gray 110: every level appears, in order, in runs of ~100 px.
        let ctx = CGContext(width: 1000, height: 1)!
        let g = CGGradient(colorsSpace: nil, colors: [CGColor(gray: 100 / 255, alpha: 1), CGColor(gray: 110 / 255, alpha: 1)],
                           locations: nil)!
        ctx.drawLinearGradient(g, start: .zero, end: CGPoint(x: 1000, y: 0), options: [])
        let levels = (0..<1000).map { Int(ctx.pixelAt($0, 0) & 0xFF) }
        #expect(levels.first == 100 && levels.last == 110)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $1 == $0 || $1 == $0 + 1 })
        let runs = Dictionary(grouping: levels, by: { $0 }).mapValues(\.count)
        for level in 101...109 { #expect(abs(runs[level, default: 0] - 100) <= 2, "level \(level) run \(runs[level, default: 0])") }
    }

    @Test func shadowOffsetIgnoresTheCTM() {
        let ctx = FillGoldenTests.canvas(120, 60)
        for (i, blur) in [0.0, 2.0, 8.0].enumerated() {
            ctx.saveGState()
            ctx.setShadow(offset: CGSize(width: 4, height: -6), blur: blur, color: CGColor(gray: 0, alpha: 0.6))
            ctx.translateBy(x: 20 + CGFloat(i) * 40, y: 34)
            ctx.rotate(by: .pi / 4 + CGFloat(i) * 0.4)
            ctx.scaleBy(x: 1.5, y: 1.5)   // scaled and rotated: the shadow still falls 4 right, 6 down
            ctx.setFillColor(red: 0.95, green: 0.6, blue: 0.1, alpha: 1)
            ctx.fill(CGRect(x: -7, y: -7, width: 14, height: 14))
            ctx.restoreGState()
        }
        Golden.check(ctx, "paint", "shadows_rotated")
    }

    @Test func pdfBlendModes() {
        let modes: [CGBlendMode] = [.multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn, .softLight,
                                    .hardLight, .difference, .exclusion, .hue, .saturation, .color, .luminosity]
        let ctx = CGContext(width: modes.count * 24, height: 24)!
        for (i, mode) in modes.enumerated() {
            let x = CGFloat(i * 24)
            ctx.saveGState()
            ctx.clip(to: CGRect(x: x, y: 0, width: 24, height: 24))
            // Backdrop: a vertical rainbow-ish gradient with a transparent top.
            let backdrop = CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.1, green: 0.2, blue: 0.8, alpha: 1),
                                                                 CGColor(red: 0.9, green: 0.9, blue: 0.2, alpha: 1),
                                                                 CGColor(red: 0.9, green: 0.1, blue: 0.3, alpha: 0)],
                                      locations: nil)!
            ctx.drawLinearGradient(backdrop, start: CGPoint(x: 0, y: 0), end: CGPoint(x: 0, y: 24), options: [])
            ctx.setBlendMode(mode)
            ctx.setFillColor(red: 0.8, green: 0.4, blue: 0.6, alpha: 0.85)
            ctx.fillEllipse(in: CGRect(x: x + 3, y: 3, width: 18, height: 18))
            ctx.restoreGState()
        }
        Golden.check(ctx, "paint", "blend_modes_pdf")
    }
}
