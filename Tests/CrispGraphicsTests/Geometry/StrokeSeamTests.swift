import CrispGraphics
import Foundation
import Testing

/// A full circle stroked as an open arc (UIKit's progress rings: `addArc` from 0 to 2π without
/// `closePath`) has its two butt caps on the same line, so the ring must look the same at the
/// seam as anywhere else.
@Suite struct StrokeSeamTests {
    /// The ring's pixels next to the seam (3 o'clock, where the arc starts and ends) against the
    /// same radii a quarter turn away, at 2×.
    static func seamDifference(closed: Bool) throws -> Int {
        let ctx = try #require(CGContext(width: 240, height: 240))
        ctx.setFillColor(CGColor(gray: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 240, height: 240))
        ctx.translateBy(x: 120, y: 120)
        ctx.scaleBy(x: 2, y: 2)
        ctx.setStrokeColor(CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 1))
        ctx.setLineWidth(14)
        ctx.addArc(center: .zero, radius: 40, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        if closed { ctx.closePath() }
        ctx.strokePath()
        let image = try #require(ctx.makeImage())
        var worst = 0
        // The ring spans device radii 66…94 from (120, 120): rows 119 and 120 straddle the seam;
        // column 119 (12 o'clock) has the same radii with no seam.
        for r in 68...92 {
            for row in [119, 120] {
                let atSeam = image.straightRGBA(x: 120 + r, y: row), away = image.straightRGBA(x: row, y: 120 - r)
                worst = max(worst, abs(Int(atSeam.r) - Int(away.r)), abs(Int(atSeam.g) - Int(away.g)))
            }
        }
        return worst
    }

    /// Closed, the stroker joins the ends instead of capping them: no seam (the measurement
    /// itself sees none where there is none).
    @Test func aClosedRingHasNoSeam() throws {
        #expect(try Self.seamDifference(closed: true) <= 2)
    }

    /// Known bug (session 11): an open curve's butt caps lie along its last refined chord, each
    /// within the flattening tolerance of the tangent but leaning opposite ways, so a wedge up to
    /// about 0.1 px wide opens between them at the pen's edge (24 levels at the ring's outer
    /// edge). The fix: caps at a curve's open end along its exact tangent (Stroker.swift). When
    /// it lands this expectation holds and `withKnownIssue` fails: take the wrapper off.
    @Test func anOpenFullCircleHasNoSeam() throws {
        let difference = try Self.seamDifference(closed: false)
        withKnownIssue("butt caps of an open curve follow its last chord, not its tangent") {
            #expect(difference <= 2, "the seam differs by \(difference) levels")
        }
    }
}
