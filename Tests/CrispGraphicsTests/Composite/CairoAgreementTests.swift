import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// Blend modes and gradients against Cairo's renderings of the same operations
/// (Fixtures/cairo/make_references.py, pycairo 1.29.2 / cairo 1.16.0).
///
/// Tolerances, per 8-bit channel: blend modes 1 (both round premultiplied 8-bit values; Cairo
/// works in 8-bit integers for the separable modes, Crisp in floats); gradients 2 (pixman
/// interpolates per pixel, Crisp through a 1024-entry table). Measured when written: 1 for every
/// mode and both gradients, against 22–255 when a mode is compared with the wrong reference.
@Suite struct CairoAgreementTests {
    static let fixtures = Golden.testsDirectory().appendingPathComponent("Fixtures/cairo")

    static func maxDifference(_ a: [UInt32], _ b: [UInt32], width: Int, rows: Range<Int>) -> Int {
        var worst = 0
        for y in rows {
            for x in 0..<width {
                let p = a[y * width + x], q = b[y * width + x]
                for shift: UInt32 in [0, 8, 16, 24] {
                    worst = max(worst, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)))
                }
            }
        }
        return worst
    }

    static let modes: [(String, CGBlendMode)] = [
        ("normal", .normal), ("multiply", .multiply), ("screen", .screen), ("overlay", .overlay), ("darken", .darken),
        ("lighten", .lighten), ("colorDodge", .colorDodge), ("colorBurn", .colorBurn), ("softLight", .softLight),
        ("hardLight", .hardLight), ("difference", .difference), ("exclusion", .exclusion), ("hue", .hue),
        ("saturation", .saturation), ("color", .color), ("luminosity", .luminosity), ("clear", .clear), ("copy", .copy),
        ("sourceIn", .sourceIn), ("sourceOut", .sourceOut), ("sourceAtop", .sourceAtop), ("destinationOver", .destinationOver),
        ("destinationIn", .destinationIn), ("destinationOut", .destinationOut), ("destinationAtop", .destinationAtop),
        ("xor", .xor), ("plusLighter", .plusLighter),
    ]

    @Test(arguments: modes)
    func blendModeMatchesCairo(name: String, mode: CGBlendMode) throws {
        let reference = try CGImage(contentsOfPNGFile: Self.fixtures.appendingPathComponent("blend_\(name).png").path)
        let ctx = CGContext.flipped(width: 32, height: 16)
        ctx.setFillColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 16, height: 16))
        ctx.setFillColor(red: 0.9, green: 0.4, blue: 0.1, alpha: 0.5)
        ctx.fill(CGRect(x: 16, y: 0, width: 16, height: 16))
        ctx.setBlendMode(mode)
        ctx.setFillColor(red: 0.8, green: 0.3, blue: 0.5, alpha: 0.7)
        ctx.fill(CGRect(x: 0, y: 4, width: 32, height: 8))
        let worst = Self.maxDifference(ctx.snapshot, reference.pixels, width: 32, rows: 4..<12)
        #expect(worst <= 1, "\(name): worst channel difference \(worst)")
    }

    static func gradient() -> CGGradient {
        CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1),
                                              CGColor(red: 1, green: 0.85, blue: 0.2, alpha: 1),
                                              CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.5)], locations: [0, 0.4, 1])!
    }

    @Test func linearGradientMatchesCairo() throws {
        let reference = try CGImage(contentsOfPNGFile: Self.fixtures.appendingPathComponent("gradient_linear.png").path)
        let ctx = CGContext.flipped(width: 64, height: 32)
        ctx.drawLinearGradient(Self.gradient(), start: CGPoint(x: 8, y: 4), end: CGPoint(x: 56, y: 28),
                               options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        let worst = Self.maxDifference(ctx.snapshot, reference.pixels, width: 64, rows: 0..<32)
        #expect(worst <= 2, "worst channel difference \(worst)")
    }

    @Test func radialGradientMatchesCairo() throws {
        let reference = try CGImage(contentsOfPNGFile: Self.fixtures.appendingPathComponent("gradient_radial.png").path)
        let ctx = CGContext.flipped(width: 64, height: 32)
        ctx.drawRadialGradient(Self.gradient(), startCenter: CGPoint(x: 24, y: 14), startRadius: 2,
                               endCenter: CGPoint(x: 32, y: 16), endRadius: 14,
                               options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        let worst = Self.maxDifference(ctx.snapshot, reference.pixels, width: 64, rows: 0..<32)
        #expect(worst <= 2, "worst channel difference \(worst)")
    }
}

/// Gradients given bad input draw something defined, or nothing, and never trap.
@Suite struct GradientBadInputTests {
    @Test func degenerateStops() throws {
        #expect(CGGradient(colorsSpace: nil, colors: [], locations: nil) == nil)
        #expect(CGGradient(colorsSpace: nil, colors: [.black], locations: [CGFloat.nan]) == nil)
        // One stop: one colour everywhere.
        let one = try #require(CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1)], locations: nil))
        let ctx = CGContext(width: 8, height: 8)!
        ctx.drawLinearGradient(one, start: .zero, end: CGPoint(x: 8, y: 0), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        #expect(ctx.pixelAt(4, 4) == 0xFFFF_0000)
        // Unsorted stops are sorted; NaN and out-of-range locations are dropped or clamped.
        let g = try #require(CGGradient(colorsSpace: nil, colors: [.white, .black, CGColor(gray: 0.5, alpha: 1)],
                                        locations: [1, 0, CGFloat.nan]))
        #expect(g.stops.map(\.location) == [0, 1])
        let clamped = try #require(CGGradient(colorsSpace: nil, colors: [.white, .black], locations: [-3, 7]))
        #expect(clamped.stops.map(\.location) == [0, 1])
    }

    @Test func degenerateGeometry() {
        let g = CairoAgreementTests.gradient()
        let ctx = CGContext(width: 16, height: 16)!
        ctx.drawLinearGradient(g, start: CGPoint(x: 3, y: 3), end: CGPoint(x: 3, y: 3), options: [])
        ctx.drawLinearGradient(g, start: CGPoint(x: CGFloat.nan, y: 3), end: CGPoint(x: 3, y: 3), options: [])
        ctx.drawRadialGradient(g, startCenter: CGPoint(x: 8, y: 8), startRadius: 0, endCenter: CGPoint(x: 8, y: 8), endRadius: 0, options: [])
        ctx.drawRadialGradient(g, startCenter: CGPoint(x: 8, y: 8), startRadius: -5, endCenter: CGPoint(x: 8, y: 8), endRadius: -1, options: [])
        ctx.drawRadialGradient(g, startCenter: CGPoint(x: 8, y: 8), startRadius: 1, endCenter: CGPoint(x: 8, y: 8), endRadius: .infinity, options: [])
        #expect(ctx.alphas.allSatisfy { $0 == 0 })
        // A negative start radius counts as 0: a disc of radius 6 is painted.
        ctx.drawRadialGradient(g, startCenter: CGPoint(x: 8, y: 8), startRadius: -2, endCenter: CGPoint(x: 8, y: 8), endRadius: 6, options: [])
        #expect(ctx.alphaAt(8, 8) == 255 && ctx.alphaAt(0, 0) == 0)
    }
}
