import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// A path clip's mask is built on first use; a gradient painted across the clip before that is
/// composited with the path's own coverage. Both ways must give the same pixels.
@Suite struct PendingClipTests {
    static let size = 96

    /// The gradients drawn across the clip: linear in the three directions the shader treats
    /// apart, concentric and two-circle radial, padded and not.
    static var draws: [(String, @Sendable (CGContext) -> Void)] {
        let g = PaintGoldenTests.redToBlue
        let pad: CGGradientDrawingOptions = [.drawsBeforeStartLocation, .drawsAfterEndLocation]
        return [
            ("diagonal", { $0.drawLinearGradient(g, start: CGPoint(x: 10, y: 5), end: CGPoint(x: 80, y: 90), options: pad) }),
            ("horizontal", { $0.drawLinearGradient(g, start: CGPoint(x: 20, y: 0), end: CGPoint(x: 70, y: 0), options: pad) }),
            ("vertical", { $0.drawLinearGradient(g, start: CGPoint(x: 0, y: 15), end: CGPoint(x: 0, y: 75), options: pad) }),
            ("concentric", { $0.drawRadialGradient(g, startCenter: CGPoint(x: 47, y: 51), startRadius: 3,
                                                   endCenter: CGPoint(x: 47, y: 51), endRadius: 40, options: pad) }),
            ("focal", { $0.drawRadialGradient(g, startCenter: CGPoint(x: 40, y: 45), startRadius: 0,
                                              endCenter: CGPoint(x: 50, y: 50), endRadius: 38, options: pad) }),
            ("unpadded", { $0.drawLinearGradient(g, start: CGPoint(x: 30, y: 30), end: CGPoint(x: 60, y: 70), options: []) }),
        ]
    }

    /// Draws `draw` through a star clip (even-odd, inside a circle clip when `nested`), with the
    /// clip's mask built first when `buildMask`.
    static func render(_ draw: (CGContext) -> Void, nested: Bool, alpha: CGFloat, buildMask: Bool) throws -> [UInt8] {
        let ctx = try #require(CGContext(width: size, height: size))
        ctx.setFillColor(CGColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 0.5))
        ctx.fill(CGRect(x: 0, y: 0, width: size, height: size))
        if nested {
            ctx.addEllipse(in: CGRect(x: 8.3, y: 6.7, width: 80, height: 84))
            ctx.clip()
        }
        ctx.move(to: CGPoint(x: 48, y: 3.5))
        for k in 1..<5 {
            let angle = Double(k) * 4 * Double.pi / 5
            ctx.addLine(to: CGPoint(x: 48 + 45 * sin(angle), y: 48.5 - 45 * cos(angle)))
        }
        ctx.closePath()
        ctx.clip(using: .evenOdd)
        #expect(ctx.gstate.clip.pending?.isBuilt == false)
        if buildMask { _ = ctx.gstate.clip.mask }
        ctx.setAlpha(alpha)
        draw(ctx)
        // Painted straight from the path's coverage: the mask is still not built.
        #expect(ctx.gstate.clip.pending?.isBuilt == buildMask)
        let bytes = ctx.data!.assumingMemoryBound(to: UInt8.self)
        return Array(UnsafeBufferPointer(start: bytes, count: ctx.bytesPerRow * ctx.height))
    }

    @Test(arguments: [false, true], [1.0, 0.6])
    func gradientsAcrossAPathClipMatchTheMask(nested: Bool, alpha: Double) throws {
        for (name, draw) in Self.draws {
            let direct = try Self.render(draw, nested: nested, alpha: alpha, buildMask: false)
            let masked = try Self.render(draw, nested: nested, alpha: alpha, buildMask: true)
            #expect(direct == masked, "\(name)")
            #expect(direct.contains { $0 != 0 }, "\(name)")
        }
    }

    /// The mask is built once, on first use, and then shared: drawing through it afterwards
    /// (a solid fill) gives what drawing through a mask built at once gives.
    @Test func theMaskIsBuiltOnFirstUse() throws {
        let ctx = try #require(CGContext(width: Self.size, height: Self.size))
        ctx.addEllipse(in: CGRect(x: 10.5, y: 12, width: 60, height: 50))
        ctx.clip()
        let pending = try #require(ctx.gstate.clip.pending)
        #expect(!pending.isBuilt)
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: Self.size, height: Self.size))
        #expect(pending.isBuilt)
        let mask = try #require(ctx.gstate.clip.mask)
        #expect(mask === pending.mask)
        // The red fill shows the ellipse: inside opaque, outside untouched.
        let bytes = ctx.data!.assumingMemoryBound(to: UInt8.self)
        #expect(bytes[(37 * Self.size + 40) * 4 + 3] == 255)
        #expect(bytes[(5 * Self.size + 5) * 4 + 3] == 0)
    }
}
