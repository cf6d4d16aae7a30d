import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Golden images of filling: fill rules, holes, tiny and huge shapes, transforms, arcs, clips.
@Suite struct FillGoldenTests {
    /// A white canvas.
    static func canvas(_ w: Int = 96, _ h: Int = 64) -> CGContext {
        let ctx = CGContext(width: w, height: h)!
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: w, height: h))
        return ctx
    }

    static func star(_ ctx: CGContext, center: CGPoint, radius: CGFloat, points: Int = 5) {
        for i in 0..<points {
            let a = CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / CGFloat(points)
            let p = CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
            if i == 0 { ctx.move(to: p) } else { ctx.addLine(to: p) }
        }
        ctx.closePath()
    }

    @Test(arguments: [CGPathFillRule.winding, .evenOdd])
    func selfIntersectingStar(rule: CGPathFillRule) {
        let ctx = Self.canvas()
        ctx.setFillColor(red: 0.85, green: 0.2, blue: 0.15, alpha: 1)
        Self.star(ctx, center: CGPoint(x: 30, y: 32), radius: 28)
        ctx.fillPath(using: rule)
        // A seven-pointed star, {7/3}: windings 1, 2 and 3.
        ctx.setFillColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.8)
        for i in 0..<7 {
            let a = CGFloat.pi / 2 + CGFloat(i) * 6 * .pi / 7
            let p = CGPoint(x: 72 + 22 * cos(a), y: 32 + 22 * sin(a))
            if i == 0 { ctx.move(to: p) } else { ctx.addLine(to: p) }
        }
        ctx.closePath()
        ctx.fillPath(using: rule)
        Golden.check(ctx, "fill", rule == .winding ? "star_nonzero" : "star_evenodd")
    }

    @Test func holes() {
        let ctx = Self.canvas()
        ctx.setFillColor(red: 0.2, green: 0.55, blue: 0.3, alpha: 1)
        // Same direction twice: even-odd makes the hole.
        ctx.addEllipse(in: CGRect(x: 4, y: 6, width: 40, height: 52))
        ctx.addEllipse(in: CGRect(x: 14, y: 18, width: 20, height: 28))
        ctx.fillPath(using: .evenOdd)
        // Opposite direction: non-zero makes the hole.
        let outer = CGMutablePath()
        outer.addRoundedRect(in: CGRect(x: 52, y: 6, width: 40, height: 52), cornerWidth: 8, cornerHeight: 8)
        outer.addArc(center: CGPoint(x: 72, y: 32), radius: 12, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        ctx.addPath(outer)
        ctx.fillPath(using: .winding)
        Golden.check(ctx, "fill", "holes")
    }

    @Test func tinyShapes() {
        let ctx = Self.canvas(48, 24)
        ctx.setFillColor(gray: 0, alpha: 1)
        var x: CGFloat = 1.3
        for size in [0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0] as [CGFloat] {
            ctx.fill(CGRect(x: x, y: 2.4, width: size, height: size))
            ctx.addLines(between: [CGPoint(x: x, y: 8.2), CGPoint(x: x + size, y: 8.2), CGPoint(x: x + size / 2, y: 8.2 + size)])
            ctx.fillPath()
            ctx.fillEllipse(in: CGRect(x: x, y: 14.6, width: size, height: size))
            x += size + 2.5
        }
        // A sliver 0.05 px wide and 20 px tall: a faint, even line.
        ctx.addLines(between: [CGPoint(x: 44.3, y: 2), CGPoint(x: 44.35, y: 2), CGPoint(x: 44.35, y: 22), CGPoint(x: 44.3, y: 22)])
        ctx.fillPath()
        Golden.check(ctx, "fill", "tiny_shapes")
    }

    @Test func hugeShapes() {
        let ctx = Self.canvas(64, 64)
        ctx.setFillColor(red: 0.9, green: 0.6, blue: 0.1, alpha: 1)
        // A triangle with vertices a million pixels away: its edge crosses the canvas diagonally.
        ctx.addLines(between: [CGPoint(x: -1e6, y: -1e6), CGPoint(x: 1e6 + 10, y: -1e6), CGPoint(x: 1e6 + 10, y: 1e6 - 10)])
        ctx.fillPath()
        // A circle of radius 10,000 whose rim passes through the canvas.
        ctx.setFillColor(red: 0.1, green: 0.4, blue: 0.7, alpha: 0.7)
        ctx.fillEllipse(in: CGRect(x: 40 - 20_000, y: -10_000, width: 20_000, height: 20_000))
        Golden.check(ctx, "fill", "huge_shapes")
    }

    @Test func pixelAlignedRectangles() {
        let ctx = Self.canvas(64, 32)
        let colors: [CGColor] = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0.6, blue: 0, alpha: 1),
                                 CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(gray: 0.2, alpha: 0.5)]
        for (i, c) in colors.enumerated() {
            ctx.setFillColor(c)
            ctx.fill(CGRect(x: 2 + i * 15, y: 2, width: 12, height: 28))
        }
        // Touching rectangles, each exactly on pixel boundaries: no seam between them.
        ctx.setFillColor(red: 0.5, green: 0.2, blue: 0.6, alpha: 1)
        ctx.fill([CGRect(x: 2, y: 12, width: 30, height: 4), CGRect(x: 32, y: 12, width: 30, height: 4)])
        Golden.check(ctx, "fill", "pixel_aligned_rects")
    }

    @Test func transforms() {
        let ctx = Self.canvas(96, 64)
        let square = CGRect(x: -10, y: -10, width: 20, height: 20)
        ctx.setFillColor(red: 0.8, green: 0.1, blue: 0.4, alpha: 1)
        ctx.saveGState()
        ctx.translateBy(x: 16, y: 32)
        ctx.rotate(by: .pi / 6)
        ctx.fill(square)
        ctx.restoreGState()
        ctx.saveGState()
        ctx.translateBy(x: 48, y: 32)
        ctx.scaleBy(x: 1.4, y: 0.6)
        ctx.fillEllipse(in: square)
        ctx.restoreGState()
        ctx.saveGState()
        ctx.translateBy(x: 78, y: 32)
        ctx.concatenate(CGAffineTransform(a: 1, b: 0, c: 0.6, d: 1, tx: 0, ty: 0))   // skew
        ctx.fill(square)
        ctx.restoreGState()
        Golden.check(ctx, "fill", "transforms")
    }

    @Test func arcsInBothDirections() {
        let ctx = Self.canvas(96, 48)
        for (i, clockwise) in [false, true].enumerated() {
            let c = CGPoint(x: 24 + CGFloat(i) * 48, y: 24)
            ctx.setFillColor(red: clockwise ? 0.1 : 0.9, green: 0.4, blue: clockwise ? 0.9 : 0.1, alpha: 1)
            ctx.move(to: c)
            ctx.addArc(center: c, radius: 20, startAngle: 0, endAngle: .pi / 2, clockwise: clockwise)
            ctx.closePath()
            ctx.fillPath()
        }
        Golden.check(ctx, "fill", "arcs_ccw_then_cw")
    }

    @Test func clipCombinations() {
        let ctx = Self.canvas(96, 64)
        ctx.saveGState()
        ctx.addEllipse(in: CGRect(x: 4, y: 4, width: 56, height: 56))
        ctx.clip()
        Self.star(ctx, center: CGPoint(x: 32, y: 32), radius: 34)
        ctx.clip(using: .evenOdd)
        ctx.setFillColor(red: 0.2, green: 0.3, blue: 0.9, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 96, height: 64))
        ctx.restoreGState()
        ctx.saveGState()
        ctx.clip(to: [CGRect(x: 66, y: 4, width: 10.5, height: 56), CGRect(x: 80.25, y: 4, width: 10, height: 56)])
        ctx.setFillColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 1)
        ctx.fillEllipse(in: CGRect(x: 62, y: 8, width: 32, height: 48))
        ctx.restoreGState()
        // After restore: unclipped.
        ctx.setFillColor(gray: 0, alpha: 0.5)
        ctx.fill(CGRect(x: 0, y: 28, width: 96, height: 8))
        Golden.check(ctx, "fill", "clips_and_restore")
    }

    @Test func touchingShapesShareEdges() {
        // A 6×4 grid of triangle pairs tiling a rectangle: pixel-aligned shared edges vanish; the
        // diagonals (not pixel-aligned) show the faint seam every anti-aliased renderer has.
        let ctx = Self.canvas(64, 48)
        ctx.setFillColor(red: 0.1, green: 0.5, blue: 0.5, alpha: 1)
        for gy in 0..<4 {
            for gx in 0..<6 {
                let x = CGFloat(2 + gx * 10), y = CGFloat(4 + gy * 10)
                ctx.addLines(between: [CGPoint(x: x, y: y), CGPoint(x: x + 10, y: y), CGPoint(x: x + 10, y: y + 10)])
                ctx.fillPath()
                ctx.addLines(between: [CGPoint(x: x, y: y), CGPoint(x: x + 10, y: y + 10), CGPoint(x: x, y: y + 10)])
                ctx.fillPath()
            }
        }
        Golden.check(ctx, "fill", "touching_shapes")
    }

    @Test func antialiasingOff() {
        let ctx = Self.canvas(64, 32)
        ctx.setShouldAntialias(false)
        ctx.setFillColor(gray: 0, alpha: 1)
        Self.star(ctx, center: CGPoint(x: 16, y: 16), radius: 14)
        ctx.fillPath()
        ctx.fillEllipse(in: CGRect(x: 34.3, y: 3.6, width: 26.2, height: 24.5))
        Golden.check(ctx, "fill", "antialias_off")
    }

    @Test func blendModesOverBackdrop() {
        let modes: [CGBlendMode] = [.normal, .copy, .clear, .sourceIn, .sourceOut, .sourceAtop, .destinationOver,
                                    .destinationIn, .destinationOut, .destinationAtop, .xor, .plusDarker, .plusLighter]
        let ctx = CGContext(width: 13 * 20, height: 20)!
        for (i, mode) in modes.enumerated() {
            let x = CGFloat(i * 20)
            ctx.saveGState()
            ctx.clip(to: CGRect(x: x, y: 0, width: 20, height: 20))
            // Backdrop: a half-transparent blue disc on transparent.
            ctx.setFillColor(red: 0, green: 0.3, blue: 1, alpha: 0.8)
            ctx.fillEllipse(in: CGRect(x: x + 1, y: 5, width: 13, height: 13))
            ctx.setBlendMode(mode)
            ctx.setFillColor(red: 1, green: 0.4, blue: 0, alpha: 0.7)
            ctx.fill(CGRect(x: x + 6, y: 1, width: 12, height: 12))
            ctx.restoreGState()
        }
        Golden.check(ctx, "fill", "blend_modes_porter_duff")
    }
}
