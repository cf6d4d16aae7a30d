import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// A gradient that varies along rows asks the rasterizer for whole rows (`joinedGap`): every
/// gap between two runs of a row comes inside one coverage row, and the gap's pixels (coverage
/// 0 outside the shape, 255 inside it) must come out as if the runs had come as spans.
@Suite struct GradientJoinedRowsTests {
    static let width = 220, height = 24

    static let gradient = CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.9, green: 0.1, blue: 0.3, alpha: 0.7),
                                                                CGColor(red: 0.1, green: 0.6, blue: 1, alpha: 0.9)],
                                     locations: nil)!

    /// A background of distinct translucent colours, so a pixel blended twice or not at all shows.
    static func context() throws -> CGContext {
        let ctx = try #require(CGContext(width: width, height: height))
        for x in stride(from: 0, to: width, by: 5) {
            ctx.setFillColor(red: CGFloat(x % 7) / 7, green: CGFloat(x % 11) / 11, blue: 0.5, alpha: 0.5 + CGFloat(x % 3) / 6)
            ctx.fill(CGRect(x: CGFloat(x), y: 0, width: 5, height: CGFloat(height)))
        }
        return ctx
    }

    /// Paints `paint` (a gradient drawn across a clip, as SVG fills) through the clip `shapes`
    /// (even-odd, so the ring has its hole).
    static func draw(_ ctx: CGContext, _ shapes: [CGPath], paint: (CGContext) -> Void) {
        ctx.saveGState()
        for shape in shapes { ctx.addPath(shape) }
        ctx.clip(using: .evenOdd)
        paint(ctx)
        ctx.restoreGState()
    }

    /// Two shapes far apart in the same rows (gaps of 0 coverage far beyond 32 pixels) and a
    /// ring (a gap of 0 inside, wide interiors of 255 beside it), drawn as one clip and as
    /// separate clips, with a linear gradient across the rows and a radial one: the same pixels.
    @Test(arguments: [false, true])
    func joinedRowsGiveThePixelsOfSeparateSpans(radial: Bool) throws {
        let left = CGPath(ellipseIn: CGRect(x: 3.3, y: 2.6, width: 41.5, height: 18.2), transform: nil)
        let right = CGPath(roundedRect: CGRect(x: 150.4, y: 1.2, width: 63.7, height: 21.1), cornerWidth: 6, cornerHeight: 6,
                           transform: nil)
        let ring = CGMutablePath()
        ring.addRect(CGRect(x: 60.25, y: 0.5, width: 80.5, height: 23))
        ring.addRect(CGRect(x: 75.5, y: 5.75, width: 50.25, height: 12.5))
        let paint: (CGContext) -> Void = { ctx in
            if radial {
                ctx.drawRadialGradient(Self.gradient, startCenter: CGPoint(x: 100, y: 10), startRadius: 2,
                                       endCenter: CGPoint(x: 110, y: 12), endRadius: 120,
                                       options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
            } else {
                ctx.drawLinearGradient(Self.gradient, start: CGPoint(x: 2, y: 0), end: CGPoint(x: 215, y: 9),
                                       options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
            }
        }
        let together = try Self.context(), apart = try Self.context()
        Self.draw(together, [left, ring, right], paint: paint)
        for shape in [left, ring as CGPath, right] { Self.draw(apart, [shape], paint: paint) }
        let a = try #require(together.makeImage()).pixels, b = try #require(apart.makeImage()).pixels
        #expect(a.count == Self.width * Self.height)
        #expect(a == b)
        // The gradient reached the shapes and left the gaps alone.
        let background = try #require(Self.context().makeImage()).pixels
        let changed = (0..<a.count).filter { a[$0] != background[$0] }
        #expect(changed.count > 2_500)
        #expect(!changed.contains(12 * Self.width + 100) && !changed.contains(12 * Self.width + 50))
    }

    /// Which blitters ask for whole rows: gradients that vary along rows and are not opaque, with
    /// no clip mask; not a solid colour, a vertical gradient, an opaque gradient or a clip mask's
    /// writer.
    @Test func joinedGapByPaint() {
        let shade = UnsafeMutablePointer<UInt32>.allocate(capacity: 8)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
        var pixel: UInt32 = 0
        defer { shade.deallocate(); scratch.deallocate() }
        let opaque = CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                                           CGColor(red: 0, green: 0, blue: 1, alpha: 1)], locations: nil)!
        func gap(_ paint: Paint, clip: ClipMask? = nil) -> Int {
            CompositeBlitter(pixels: &pixel, rowStride: 1, paint: paint, blendMode: .normal, clipMask: clip,
                             shadeBuffer: shade, maskScratch: scratch).joinedGap
        }
        let table = Self.gradient.table(alpha: 1)
        let along = LinearGradientPaint(table: table, a: 0.01, b: 0.003, c: 0, extendBefore: true, extendAfter: true)
        let vertical = LinearGradientPaint(table: table, a: 0, b: 0.01, c: 0, extendBefore: true, extendAfter: true)
        let opaqueAlong = LinearGradientPaint(table: opaque.table(alpha: 1), a: 0.01, b: 0, c: 0, extendBefore: true, extendAfter: true)
        let radial = RadialGradientPaint(table: table, toUser: .identity, c0: .zero, r0: 0, dc: .zero, dr: 30,
                                         extendBefore: true, extendAfter: true)
        let whole = Int(Int32.max)
        #expect(gap(.linearGradient(along)) == whole)
        #expect(gap(.radialGradient(radial)) == whole)
        #expect(gap(.linearGradient(vertical)) == Rasterizer.mergedGap)
        #expect(gap(.linearGradient(opaqueAlong)) == Rasterizer.mergedGap)
        #expect(gap(.solid(0x8040_2010)) == Rasterizer.mergedGap)
        #expect(gap(.linearGradient(along), clip: ClipMask(bounds: PixelRect(x: 0, y: 0, maxX: 1, maxY: 1))) == Rasterizer.mergedGap)
        let mask = ClipMask(bounds: PixelRect(x: 0, y: 0, maxX: 1, maxY: 1))
        #expect(MaskWriter(mask: mask, clipMask: nil, maskScratch: scratch).joinedGap == 0)
    }
}
