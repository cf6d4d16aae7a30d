import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// Curved edges against their exact coverage, at the default flatness (0.2 px) and at the 0.05 px
/// CrispSVG uses.
///
/// The reference for round shapes is 16×16 supersampling of the exact shape (a point-in-disc,
/// point-in-ellipse or distance-to-segment test per sample), as `ReferenceRasterizer` does for
/// polygons; for a cubic S-curve, filled or stroked, it is the curve as a polyline of 4,096
/// points on it (within 10⁻⁴ px of the curve), rasterized exactly (polygons are exact, checked by
/// `RasterizerReferenceTests`). Only edge pixels count: those partly covered in either image.
/// Chords lie inside a convex curve, so curved edges come out short, by about 2/3 of the chords'
/// sagitta; the bars are today's figures, so flattening can only get closer (docs/performance.md, "SVG scenes", "Tried and not landed").
@Suite struct CurveCoverageTests {
    static let size = 64

    struct EdgeError: CustomStringConvertible {
        var mean: Double, signedMean: Double, max: Int, count: Int
        var description: String {
            String(format: "mean %.2f, signed %.2f, max %d over %d edge pixels", mean, signedMean, max, count)
        }
    }

    static func edgeError(_ got: [UInt8], _ want: [UInt8]) -> EdgeError {
        var total = 0, signed = 0, worst = 0, count = 0
        for i in got.indices where (1...254).contains(got[i]) || (1...254).contains(want[i]) {
            let d = Int(got[i]) - Int(want[i])
            total += abs(d); signed += d; worst = max(worst, abs(d)); count += 1
        }
        return EdgeError(mean: Double(total) / Double(max(count, 1)), signedMean: Double(signed) / Double(max(count, 1)),
                         max: worst, count: count)
    }

    /// Coverage (alpha) of what `draw` paints in white on a transparent size×size context with
    /// raster coordinates (y down).
    static func render(flatness: CGFloat? = nil, _ draw: (CGContext) -> Void) -> [UInt8] {
        let ctx = CGContext(width: size, height: size)!
        ctx.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(size)))
        if let flatness { ctx.setFlatness(flatness) }
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.setStrokeColor(gray: 1, alpha: 1)
        draw(ctx)
        return ctx.makeImage()!.pixels.map { UInt8($0 >> 24) }
    }

    /// 16×16 samples a pixel of an exact inside test.
    static func supersample(_ inside: (CGFloat, CGFloat) -> Bool) -> [UInt8] {
        let n = 16
        var out = [UInt8](repeating: 0, count: size * size)
        for py in 0..<size {
            for px in 0..<size {
                var hits = 0
                for sy in 0..<n {
                    let y = CGFloat(py) + (CGFloat(sy) + 0.5) / CGFloat(n)
                    for sx in 0..<n where inside(CGFloat(px) + (CGFloat(sx) + 0.5) / CGFloat(n), y) { hits += 1 }
                }
                out[py * size + px] = UInt8((hits * 255 + n * n / 2) / (n * n))
            }
        }
        return out
    }

    /// Distance from (x, y) to the segment a–b.
    static func distance(_ x: CGFloat, _ y: CGFloat, _ a: CGPoint, _ b: CGPoint) -> CGFloat {
        let dx = b.x - a.x, dy = b.y - a.y
        let t = min(max(((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy), 0), 1)
        return hypot(x - a.x - t * dx, y - a.y - t * dy)
    }

    /// The S-curve used for the cubic cases, and its points at 4,096 uniform steps.
    static let sCurve = (CGPoint(x: 6, y: 56), CGPoint(x: 70, y: 58), CGPoint(x: -8, y: 8), CGPoint(x: 58, y: 6))
    static var sCurvePolyline: [CGPoint] {
        (0...4096).map { CGPath.cubicPoint(sCurve.0, sCurve.1, sCurve.2, sCurve.3, CGFloat($0) / 4096) }
    }

    /// A shape and the largest mean and single edge-pixel errors (of 255) allowed at the default
    /// flatness (0.2 px) and at CrispSVG's 0.05 px.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var mean: Double, max: Int
        var fineMean: Double, fineMax: Int
        var description: String { name }
    }

    static func images(_ name: String, flatness: CGFloat? = nil) -> (got: [UInt8], want: [UInt8]) {
        switch name {
        case let circle where circle.hasPrefix("circle r"):
            let r = CGFloat(Double(circle.dropFirst(8))!)
            let c = CGPoint(x: 31.3, y: 32.6)
            let got = render(flatness: flatness) { $0.fillEllipse(in: CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)) }
            return (got, supersample { x, y in hypot(x - c.x, y - c.y) <= r })
        case "rotated ellipse":
            let t = CGAffineTransform(translationX: 32.2, y: 31.7).rotated(by: 0.5)
            let got = render(flatness: flatness) { ctx in
                ctx.concatenate(t)
                ctx.fillEllipse(in: CGRect(x: -29, y: -11, width: 58, height: 22))
            }
            let inverse = t.inverted()
            return (got, supersample { x, y in
                let p = CGPoint(x: x, y: y).applying(inverse)
                return (p.x / 29) * (p.x / 29) + (p.y / 11) * (p.y / 11) <= 1
            })
        case "cubic S fill":
            let (p0, p1, p2, p3) = sCurve
            let got = render(flatness: flatness) { ctx in
                ctx.move(to: p0)
                ctx.addCurve(to: p3, control1: p1, control2: p2)
                ctx.addLine(to: CGPoint(x: 2, y: 2))
                ctx.closePath()
                ctx.fillPath()
            }
            let want = render { ctx in
                ctx.addLines(between: sCurvePolyline + [CGPoint(x: 2, y: 2)])
                ctx.closePath()
                ctx.fillPath()
            }
            return (got, want)
        case "cubic S stroke 1 px":
            let (p0, p1, p2, p3) = sCurve
            let got = render(flatness: flatness) { ctx in
                ctx.setLineWidth(1)
                ctx.move(to: p0)
                ctx.addCurve(to: p3, control1: p1, control2: p2)
                ctx.strokePath()
            }
            let want = render { ctx in
                ctx.setLineWidth(1)
                ctx.addLines(between: sCurvePolyline)
                ctx.strokePath()
            }
            return (got, want)
        case let ring where ring.hasPrefix("ring w"):
            let w = CGFloat(Double(ring.dropFirst(6))!), r: CGFloat = 21.7
            let c = CGPoint(x: 32.4, y: 31.8)
            let got = render(flatness: flatness) { ctx in
                ctx.setLineWidth(w)
                ctx.strokeEllipse(in: CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
            }
            return (got, supersample { x, y in abs(hypot(x - c.x, y - c.y) - r) <= w / 2 })
        case let caps where caps.hasPrefix("round caps w"):
            let w = CGFloat(Double(caps.dropFirst(12))!)
            let a = CGPoint(x: 12.3, y: 40.2), b = CGPoint(x: 50.6, y: 22.9)
            let got = render(flatness: flatness) { ctx in
                ctx.setLineWidth(w)
                ctx.setLineCap(.round)
                ctx.strokeLineSegments(between: [a, b])
            }
            return (got, supersample { x, y in distance(x, y, a, b) <= w / 2 })
        case let join where join.hasPrefix("round join w"):
            let w = CGFloat(Double(join.dropFirst(12))!)
            let a = CGPoint(x: 8.2, y: 50.3), b = CGPoint(x: 34.7, y: 12.6), c = CGPoint(x: 56.1, y: 49.4)
            let got = render(flatness: flatness) { ctx in
                ctx.setLineWidth(w)
                ctx.setLineJoin(.round)
                ctx.addLines(between: [a, b, c])
                ctx.strokePath()
            }
            // Butt caps: a point is in a segment's rectangle when its projection falls on it.
            func inRectangle(_ x: CGFloat, _ y: CGFloat, _ p: CGPoint, _ q: CGPoint) -> Bool {
                let dx = q.x - p.x, dy = q.y - p.y
                let t = ((x - p.x) * dx + (y - p.y) * dy) / (dx * dx + dy * dy)
                return (0...1).contains(t) && distance(x, y, p, q) <= w / 2
            }
            return (got, supersample { x, y in
                inRectangle(x, y, a, b) || inRectangle(x, y, b, c) || hypot(x - b.x, y - b.y) <= w / 2
            })
        default:
            preconditionFailure("no case \(name)")
        }
    }

    // Measured: mean / max at 0.2 px, then at 0.05 px; each bar is the figure rounded up.
    static let cases = [
        Case(name: "circle r3.3", mean: 17, max: 28, fineMean: 6, fineMax: 10),           // 16.50/27, 5.79/9
        Case(name: "circle r7.6", mean: 20, max: 42, fineMean: 5.5, fineMax: 10),         // 19.72/41, 5.27/9
        Case(name: "circle r22", mean: 18.5, max: 43, fineMean: 5.5, fineMax: 13),        // 18.11/42, 5.25/12
        Case(name: "circle r30.4", mean: 19, max: 43, fineMean: 5.5, fineMax: 14),        // 18.52/42, 4.98/13
        Case(name: "rotated ellipse", mean: 12.5, max: 40, fineMean: 3, fineMax: 12),     // 12.18/39, 2.77/11
        Case(name: "cubic S fill", mean: 5, max: 29, fineMean: 1.5, fineMax: 7),          // 4.84/28, 1.27/6
        Case(name: "cubic S stroke 1 px", mean: 10.5, max: 32, fineMean: 3, fineMax: 7),  // 10.22/31, 2.56/6
        Case(name: "ring w1.5", mean: 17.5, max: 46, fineMean: 5, fineMax: 15),           // 17.24/45, 4.89/14
        Case(name: "ring w6", mean: 17.5, max: 44, fineMean: 5, fineMax: 12),             // 17.42/43 (no steps at smooth junctions now), 4.62/11
        Case(name: "round caps w3", mean: 3, max: 40, fineMean: 1, fineMax: 12),          // 2.86/39, 0.89/11
        Case(name: "round caps w14", mean: 9, max: 56, fineMean: 3, fineMax: 13),         // 8.63/55, 2.49/12
        Case(name: "round join w10", mean: 2, max: 51, fineMean: 1, fineMax: 13),         // 1.52/50, 0.65/12
    ]

    @Test(arguments: cases)
    func edgePixelsMatchTheExactArea(_ shape: Case) {
        let (got, want) = Self.images(shape.name)
        let error = Self.edgeError(got, want)
        #expect(error.mean <= shape.mean, "\(shape.name) at 0.2 px: \(error)")
        #expect(error.max <= shape.max, "\(shape.name) at 0.2 px: \(error)")
        let fine = Self.edgeError(Self.images(shape.name, flatness: 0.05).got, want)
        #expect(fine.mean <= shape.fineMean, "\(shape.name) at 0.05 px: \(fine)")
        #expect(fine.max <= shape.fineMax, "\(shape.name) at 0.05 px: \(fine)")
    }
}
