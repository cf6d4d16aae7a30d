import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Golden images of stroking through the context: joins, caps, widths, dashes, hairlines.
@Suite struct StrokeGoldenTests {
    static let joinsAndCaps: [(CGLineJoin, CGLineCap)] = CGLineJoin.allCases.flatMap { j in CGLineCap.allCases.map { (j, $0) } }

    static func name(_ j: CGLineJoin) -> String { ["miter", "round", "bevel"][Int(j.rawValue)] }
    static func name(_ c: CGLineCap) -> String { ["butt", "round", "square"][Int(c.rawValue)] }

    /// One image per join × cap: an open zig-zag with a sharp and a shallow corner at widths
    /// 1, 3 and 8, and a thin black centre line to show where the path runs.
    @Test(arguments: joinsAndCaps)
    func joinCapWidth(join: CGLineJoin, cap: CGLineCap) {
        let ctx = FillGoldenTests.canvas(120, 44)
        for (i, width) in [1.0, 3.0, 8.0].enumerated() {
            let x0 = 8 + CGFloat(i) * 38
            let pts = [CGPoint(x: x0, y: 8), CGPoint(x: x0 + 10, y: 36), CGPoint(x: x0 + 16, y: 10), CGPoint(x: x0 + 28, y: 24)]
            ctx.setStrokeColor(red: 0.2, green: 0.45, blue: 0.85, alpha: 1)
            ctx.setLineWidth(width)
            ctx.setLineJoin(join)
            ctx.setLineCap(cap)
            ctx.addLines(between: pts)
            ctx.strokePath()
            ctx.setStrokeColor(gray: 0, alpha: 1)
            ctx.setLineWidth(0.5)
            ctx.setLineCap(.butt)
            ctx.addLines(between: pts)
            ctx.strokePath()
        }
        Golden.check(ctx, "stroke", "\(Self.name(join))_\(Self.name(cap))")
    }

    @Test func miterLimit() {
        let ctx = FillGoldenTests.canvas(96, 48)
        ctx.setLineWidth(4)
        ctx.setStrokeColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
        // The same 24° corner (miter length / width = 1/sin 12° ≈ 4.8) with limits 10 (miter)
        // and 2 (bevel).
        for (i, limit) in [10.0, 2.0].enumerated() {
            let x = 24 + CGFloat(i) * 40
            ctx.setMiterLimit(limit)
            ctx.addLines(between: [CGPoint(x: x, y: 4), CGPoint(x: x + 6, y: 32), CGPoint(x: x + 12, y: 4)])
            ctx.strokePath()
        }
        Golden.check(ctx, "stroke", "miter_limit")
    }

    @Test func dashes() {
        let ctx = FillGoldenTests.canvas(120, 60)
        ctx.setStrokeColor(gray: 0.1, alpha: 1)
        ctx.setLineWidth(2)
        let patterns: [(CGFloat, [CGFloat])] = [(0, [6, 3]), (4, [6, 3]), (0, [8, 2, 2, 2]), (0, [5])]
        for (i, (phase, lengths)) in patterns.enumerated() {
            let y = 8 + CGFloat(i) * 8
            ctx.setLineDash(phase: phase, lengths: lengths)
            ctx.move(to: CGPoint(x: 4, y: y))
            ctx.addLine(to: CGPoint(x: 60, y: y))
            ctx.strokePath()
        }
        // Dashes following a curve and around a closed rounded rectangle, with round caps.
        ctx.setLineCap(.round)
        ctx.setLineWidth(3)
        ctx.setStrokeColor(red: 0.1, green: 0.5, blue: 0.3, alpha: 1)
        ctx.setLineDash(phase: 0, lengths: [7, 5])
        ctx.addEllipse(in: CGRect(x: 68, y: 6, width: 46, height: 46))
        ctx.strokePath()
        // Zero-length dashes with round caps are dots.
        ctx.setLineDash(phase: 0, lengths: [0, 6])
        ctx.setStrokeColor(red: 0.8, green: 0.3, blue: 0.1, alpha: 1)
        ctx.move(to: CGPoint(x: 6, y: 50))
        ctx.addLine(to: CGPoint(x: 60, y: 50))
        ctx.strokePath()
        Golden.check(ctx, "stroke", "dashes")
    }

    @Test func hairlinesAndThinStrokes() {
        let ctx = FillGoldenTests.canvas(100, 40)
        ctx.setStrokeColor(gray: 0, alpha: 1)
        // Widths 0 (hairline: one device pixel), 0.25, 0.5, 1, at integer and half-pixel positions.
        for (i, width) in [0.0, 0.25, 0.5, 1.0].enumerated() {
            ctx.setLineWidth(width)
            let x = 6 + CGFloat(i) * 12
            ctx.strokeLineSegments(between: [CGPoint(x: x, y: 4), CGPoint(x: x, y: 36),
                                             CGPoint(x: x + 4.5, y: 4), CGPoint(x: x + 4.5, y: 36)])
        }
        // A hairline stays one device pixel wide under a 4× scale; slanted and curved hairlines.
        ctx.saveGState()
        ctx.scaleBy(x: 4, y: 4)
        ctx.setLineWidth(0)
        ctx.strokeLineSegments(between: [CGPoint(x: 13, y: 1), CGPoint(x: 24, y: 9)])
        ctx.strokeEllipse(in: CGRect(x: 13.5, y: 1.5, width: 9, height: 7))
        ctx.restoreGState()
        Golden.check(ctx, "stroke", "hairlines")
    }

    @Test func curvesAndTransformedPens() {
        let ctx = FillGoldenTests.canvas(120, 60)
        ctx.setLineWidth(6)
        ctx.setStrokeColor(red: 0.5, green: 0.2, blue: 0.7, alpha: 0.8)
        ctx.move(to: CGPoint(x: 6, y: 10))
        ctx.addCurve(to: CGPoint(x: 54, y: 10), control1: CGPoint(x: 10, y: 70), control2: CGPoint(x: 50, y: -30))
        ctx.strokePath()
        // A tight loop: the curve's radius is smaller than half the width.
        ctx.setLineWidth(10)
        ctx.move(to: CGPoint(x: 10, y: 50))
        ctx.addCurve(to: CGPoint(x: 40, y: 50), control1: CGPoint(x: 40, y: 36), control2: CGPoint(x: 10, y: 36))
        ctx.strokePath()
        // A circle under a non-uniform scale: the pen becomes an ellipse (thick sides, thin top).
        ctx.saveGState()
        ctx.translateBy(x: 90, y: 30)
        ctx.scaleBy(x: 3, y: 1)
        ctx.setLineWidth(3)
        ctx.setStrokeColor(red: 0.1, green: 0.4, blue: 0.2, alpha: 1)
        ctx.strokeEllipse(in: CGRect(x: -8, y: -20, width: 16, height: 40))
        ctx.restoreGState()
        Golden.check(ctx, "stroke", "curves_and_pens")
    }

    @Test func strokedAndFilledRect() {
        let ctx = FillGoldenTests.canvas(64, 40)
        ctx.setFillColor(red: 1, green: 0.8, blue: 0.2, alpha: 1)
        ctx.setStrokeColor(red: 0.3, green: 0.2, blue: 0, alpha: 1)
        ctx.setLineWidth(3)
        ctx.addRect(CGRect(x: 6.5, y: 6.5, width: 24, height: 27))
        ctx.drawPath(using: .fillStroke)
        // A 1-unit stroke centred on a pixel boundary (x.0) is blurred over two pixels; on x.5 it is crisp.
        ctx.setLineWidth(1)
        ctx.stroke(CGRect(x: 38, y: 6, width: 20, height: 12))
        ctx.stroke(CGRect(x: 38.5, y: 22.5, width: 20, height: 12))
        Golden.check(ctx, "stroke", "fill_stroke_rect")
    }
}
