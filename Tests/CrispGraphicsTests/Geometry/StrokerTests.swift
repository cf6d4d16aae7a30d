import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// The ideal stroke of a polyline as a union of pieces (segment rectangles, join wedges, caps),
/// for checking the outline point by point.
struct IdealStroke {
    var points: [CGPoint]
    var width: CGFloat
    var cap: CGLineCap
    var join: CGLineJoin
    var miterLimit: CGFloat

    func contains(_ q: CGPoint) -> Bool {
        let hw = width / 2
        let n = points.count
        for i in 0..<n - 1 {
            let a = points[i], b = points[i + 1]
            let len = hypot(b.x - a.x, b.y - a.y)
            let d = CGPoint(x: (b.x - a.x) / len, y: (b.y - a.y) / len)
            let s = (q.x - a.x) * d.x + (q.y - a.y) * d.y
            let u = -(q.x - a.x) * d.y + (q.y - a.y) * d.x
            if abs(u) <= hw, s >= 0, s <= len { return true }
            // Caps.
            let isFirst = i == 0, isLast = i == n - 2
            if abs(u) <= hw {
                if cap == .square, (isFirst && s >= -hw && s <= 0) || (isLast && s >= len && s <= len + hw) { return true }
            }
            if cap == .round, (isFirst && hypot(q.x - a.x, q.y - a.y) <= hw) || (isLast && hypot(q.x - b.x, q.y - b.y) <= hw) {
                return true
            }
        }
        for i in 1..<max(n - 1, 1) where n > 2 {
            let p = points[i]
            let a = unit(points[i - 1], p), b = unit(p, points[i + 1])
            let cross = a.x * b.y - a.y * b.x, dot = a.x * b.x + a.y * b.y
            let side: CGFloat = cross > 0 ? -1 : 1   // outer side: +left normal when turning right
            let na = CGPoint(x: -a.y * hw * side, y: a.x * hw * side)
            let nb = CGPoint(x: -b.y * hw * side, y: b.x * hw * side)
            switch join {
            case .round:
                if hypot(q.x - p.x, q.y - p.y) <= hw { return true }
            case .bevel:
                if inTriangle(q, p, CGPoint(x: p.x + na.x, y: p.y + na.y), CGPoint(x: p.x + nb.x, y: p.y + nb.y)) { return true }
            case .miter:
                let pa = CGPoint(x: p.x + na.x, y: p.y + na.y), pb = CGPoint(x: p.x + nb.x, y: p.y + nb.y)
                if inTriangle(q, p, pa, pb) { return true }
                if (1 + dot) / 2 * miterLimit * miterLimit >= 1 {
                    let m = CGPoint(x: p.x + (na.x + nb.x) / (1 + dot), y: p.y + (na.y + nb.y) / (1 + dot))
                    if inTriangle(q, pa, m, pb) { return true }
                }
            }
        }
        return false
    }

    /// True when the point and its neighbours 0.06 away all agree (so it is not near the boundary).
    func isClearlyInside(_ q: CGPoint) -> Bool? {
        let inside = contains(q)
        for k in 0..<8 {
            let angle = CGFloat(k) * .pi / 4
            if contains(CGPoint(x: q.x + 0.06 * cos(angle), y: q.y + 0.06 * sin(angle))) != inside { return nil }
        }
        return inside
    }

    private func unit(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
        let len = hypot(b.x - a.x, b.y - a.y)
        return CGPoint(x: (b.x - a.x) / len, y: (b.y - a.y) / len)
    }

    private func inTriangle(_ q: CGPoint, _ a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> Bool {
        func side(_ p: CGPoint, _ r: CGPoint, _ s: CGPoint) -> CGFloat { (r.x - p.x) * (s.y - p.y) - (r.y - p.y) * (s.x - p.x) }
        let d1 = side(a, b, q), d2 = side(b, c, q), d3 = side(c, a, q)
        return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0))
    }
}

func polylinePath(_ points: [CGPoint], closed: Bool = false) -> CGMutablePath {
    let path = CGMutablePath()
    path.addLines(between: points)
    if closed { path.closeSubpath() }
    return path
}

/// Strokes through the internal entry point (to a path, for `contains`).
func strokedOutline(_ path: CGPath, _ style: StrokeStyle, tolerance: CGFloat = 0.01,
                    transform: CGAffineTransform = .identity) -> CGPath {
    let result = CGMutablePath()
    var sink = MutablePathSink(path: result, transform: .identity)
    strokeOutline(path, style: style, tolerance: tolerance, transform: transform, into: &sink)
    return result
}

/// Counts what a stroke emits.
struct CountingSink: PathFlatteningSink {
    var moves = 0, lines = 0, closes = 0
    var allFinite = true
    mutating func moveTo(_ p: CGPoint) { moves += 1; allFinite = allFinite && p.x.isFinite && p.y.isFinite }
    mutating func lineTo(_ p: CGPoint) { lines += 1; allFinite = allFinite && p.x.isFinite && p.y.isFinite }
    mutating func closeSubpath() { closes += 1 }
}

@Suite struct StrokerTests {
    static let capsAndJoins: [(CGLineCap, CGLineJoin)] =
        CGLineCap.allCases.flatMap { cap in CGLineJoin.allCases.map { (cap, $0) } }

    /// A polyline with a sharp corner (about 22° between the segments) at (40, 0) and a
    /// shallow one (150°) at (20, 8).
    static let corners = [CGPoint(x: 0, y: 0), CGPoint(x: 40, y: 0), CGPoint(x: 20, y: 8),
                          CGPoint(x: 0, y: 30)]

    @Test(arguments: capsAndJoins)
    func outlineMatchesTheIdealStroke(cap: CGLineCap, join: CGLineJoin) {
        for limit: CGFloat in [10, 2] {
            let path = polylinePath(Self.corners)
            let outline = path.copy(strokingWithWidth: 4, lineCap: cap, lineJoin: join, miterLimit: limit)
            let ideal = IdealStroke(points: Self.corners, width: 4, cap: cap, join: join, miterLimit: limit)
            var checked = 0
            for iy in 0..<90 {
                for ix in 0..<140 {
                    let q = CGPoint(x: -5 + CGFloat(ix) * 0.43, y: -5 + CGFloat(iy) * 0.43)
                    guard let expected = ideal.isClearlyInside(q) else { continue }
                    checked += 1
                    #expect(outline.contains(q, using: .winding) == expected,
                            "\(cap) \(join) limit \(limit) at \(q): expected \(expected ? "inside" : "outside")")
                }
            }
            #expect(checked > 10000)
        }
    }

    @Test(arguments: capsAndJoins)
    func namedFeatures(cap: CGLineCap, join: CGLineJoin) {
        let path = polylinePath(Self.corners)
        let outline = path.copy(strokingWithWidth: 4, lineCap: cap, lineJoin: join, miterLimit: 10)
        // The sharp corner's miter tip reaches about (50.4, −2); limit 5.29 is below 10.
        let nearTip = CGPoint(x: 48, y: -1.5)
        #expect(outline.contains(nearTip) == (join == .miter))
        let limited = path.copy(strokingWithWidth: 4, lineCap: cap, lineJoin: join, miterLimit: 5)
        #expect(!limited.contains(nearTip))
        // Round joins reach w/2 around the corner, beyond the bevel.
        #expect(outline.contains(CGPoint(x: 41.2, y: -1.2)) == (join != .bevel))
        // The start cap: round and square reach w/2 before the start, butt does not.
        #expect(outline.contains(CGPoint(x: -1.9, y: 0)) == (cap != .butt))
        #expect(outline.contains(CGPoint(x: -1.5, y: 1.8)) == (cap == .square))
        #expect(!outline.contains(CGPoint(x: -2.05, y: 0)))
        #expect(outline.contains(CGPoint(x: 0.05, y: 1.95)))
        #expect(!outline.contains(CGPoint(x: -0.05, y: 1.95)) || cap != .butt)
    }

    @Test func closedSquareHasAHoleAndSharpCorners() {
        let square = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 20, y: 20),
                                   CGPoint(x: 0, y: 20)], closed: true)
        let outline = square.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(!outline.contains(CGPoint(x: 10, y: 10)))
        #expect(!outline.contains(CGPoint(x: 2.05, y: 2.05)))
        #expect(outline.contains(CGPoint(x: 1.95, y: 10)))
        for corner in [CGPoint(x: -1.95, y: -1.95), CGPoint(x: 21.95, y: -1.95), CGPoint(x: 21.95, y: 21.95),
                       CGPoint(x: -1.95, y: 21.95)] {
            #expect(outline.contains(corner), "corner \(corner)")
        }
        #expect(!outline.contains(CGPoint(x: -2.05, y: -1)))
        let round = square.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .round, miterLimit: 10)
        #expect(!round.contains(CGPoint(x: -1.9, y: -1.9)))
        #expect(round.contains(CGPoint(x: -1.35, y: -1.35)))
        #expect(!round.contains(CGPoint(x: 10, y: 10)))
    }

    @Test(arguments: [CGLineJoin.miter, .round, .bevel])
    func strokedCircleIsAnAnnulus(join: CGLineJoin) {
        let r: CGFloat = 20, w: CGFloat = 6
        let circle = CGPath(ellipseIn: CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r))
        for tolerance: CGFloat in [0.01, 0.1] {
            let outline = strokedOutline(circle, StrokeStyle(width: w, cap: .butt, join: join), tolerance: tolerance)
            for k in 0..<72 {
                let angle = CGFloat(k) * .pi / 36 + 0.01
                func at(_ radius: CGFloat) -> CGPoint { CGPoint(x: radius * cos(angle), y: radius * sin(angle)) }
                let margin = 0.05 + tolerance
                #expect(outline.contains(at(r + w / 2 - margin)), "outer edge at \(angle)")
                #expect(outline.contains(at(r - w / 2 + margin)), "inner edge at \(angle)")
                #expect(!outline.contains(at(r + w / 2 + margin)), "beyond outer edge at \(angle)")
                #expect(!outline.contains(at(r - w / 2 - margin)), "inside inner edge at \(angle)")
            }
            #expect(!outline.contains(.zero))
        }
    }

    @Test func wideStrokeOnTightCurveHasNoHole() {
        // Radius 2, width 10: a disc of radius 7.
        let circle = CGPath(ellipseIn: CGRect(x: -2, y: -2, width: 4, height: 4))
        let outline = circle.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        for k in 0..<36 {
            let angle = CGFloat(k) * .pi / 18
            for radius: CGFloat in [0, 0.5, 1, 2, 3, 5, 6.9] {
                #expect(outline.contains(CGPoint(x: radius * cos(angle), y: radius * sin(angle))), "radius \(radius)")
            }
            #expect(!outline.contains(CGPoint(x: 7.1 * cos(angle), y: 7.1 * sin(angle))))
        }
        // A U-turn cubic, 2 units across, stroked 6 wide: the inside of the bend is filled.
        let u = CGMutablePath()
        u.move(to: CGPoint(x: 0, y: 0))
        u.addCurve(to: CGPoint(x: 0, y: 2), control1: CGPoint(x: 4, y: 0), control2: CGPoint(x: 4, y: 2))
        let bend = u.copy(strokingWithWidth: 6, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        for q in [CGPoint(x: 1, y: 1), CGPoint(x: 2, y: 1), CGPoint(x: 3, y: 1), CGPoint(x: 0.1, y: 1)] {
            #expect(bend.contains(q), "\(q)")
        }
    }

    @Test func curveEndsUseTheTangent() {
        // A quarter circle ending with a butt cap: the cap edge is the x axis (tangent vertical).
        let arc = CGMutablePath()
        arc.addArc(center: .zero, radius: 10, startAngle: .pi / 2, endAngle: 0, clockwise: true)
        let outline = arc.copy(strokingWithWidth: 8, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        for x: CGFloat in [6.1, 8, 10, 12, 13.9] {
            #expect(outline.contains(CGPoint(x: x, y: 0.05)), "x \(x)")
            #expect(!outline.contains(CGPoint(x: x, y: -0.05)), "x \(x)")
        }
    }

    /// Regression: a smooth curve end skipped its tangent refinement even when only a tiny
    /// segment followed, so the last chord's inner corner poked past the butt cap.
    @Test func curveFollowedByATinySegmentKeepsItsButtEnd() {
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 20, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        path.addLine(to: CGPoint(x: -0.005, y: 20))
        let outline = strokedOutline(path, StrokeStyle(width: 6, cap: .butt, join: .miter), tolerance: 0.01)
        for radius: CGFloat in [17.2, 20, 22.8] {
            #expect(outline.contains(CGPoint(x: 0.05, y: radius)))
            #expect(!outline.contains(CGPoint(x: -0.06, y: radius)), "radius \(radius)")
        }
    }

    @Test func nonUniformTransformGivesAnEllipticalPen() {
        let line = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 10)])
        let outline = line.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10,
                                transform: CGAffineTransform(scaleX: 3, y: 1))
        #expect(outline.contains(CGPoint(x: 2.9, y: 5)))
        #expect(!outline.contains(CGPoint(x: 3.1, y: 5)))
        #expect(!outline.contains(CGPoint(x: 0, y: 10.1)))
    }

    @Test(arguments: CGLineCap.allCases)
    func zeroLengthSubpathsDrawDots(cap: CGLineCap) {
        let closedPoint = CGMutablePath()
        closedPoint.move(to: CGPoint(x: 5, y: 5))
        closedPoint.closeSubpath()
        let zeroLine = CGMutablePath()
        zeroLine.move(to: CGPoint(x: 5, y: 5))
        zeroLine.addLine(to: CGPoint(x: 5, y: 5))
        zeroLine.addLine(to: CGPoint(x: 5, y: 5))
        let zeroCurve = CGMutablePath()
        zeroCurve.move(to: CGPoint(x: 5, y: 5))
        zeroCurve.addCurve(to: CGPoint(x: 5, y: 5), control1: CGPoint(x: 5, y: 5), control2: CGPoint(x: 5, y: 5))
        for path in [closedPoint, zeroLine, zeroCurve] {
            let outline = path.copy(strokingWithWidth: 4, lineCap: cap, lineJoin: .miter, miterLimit: 10)
            switch cap {
            case .butt:
                #expect(outline.isEmpty)
            case .round:
                #expect(outline.contains(CGPoint(x: 5 + 1.95 * cos(0.7), y: 5 + 1.95 * sin(0.7))))
                #expect(!outline.contains(CGPoint(x: 5 + 1.5, y: 5 + 1.5)))
                #expect(!outline.contains(CGPoint(x: 7.05, y: 5)))
            case .square:
                #expect(outline.contains(CGPoint(x: 6.95, y: 6.95)))
                #expect(outline.contains(CGPoint(x: 3.05, y: 3.05)))
                #expect(!outline.contains(CGPoint(x: 7.05, y: 5)))
            }
        }
        let loneMove = CGMutablePath()
        loneMove.move(to: CGPoint(x: 5, y: 5))
        #expect(loneMove.copy(strokingWithWidth: 4, lineCap: cap, lineJoin: .miter, miterLimit: 10).isEmpty)
    }

    @Test func reversalWithMiterDoesNotSpike() {
        let path = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 5, y: 0)])
        let miter = path.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 1000)
        #expect(miter.boundingBox.maxX <= 10 + 1e-9)
        #expect(miter.boundingBox.minX >= -1e-9)
        #expect(miter.contains(CGPoint(x: 9.9, y: 0.5)))
        #expect(miter.contains(CGPoint(x: 9.9, y: -0.5)))
        #expect(!miter.contains(CGPoint(x: 10.05, y: 0)))
        let round = path.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .round, miterLimit: 10)
        #expect(round.contains(CGPoint(x: 10.9, y: 0)))
        #expect(!round.contains(CGPoint(x: 11.05, y: 0)))
        // A closed back-and-forth subpath: both ends are joins.
        let closed = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0)], closed: true)
        let closedRound = closed.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .round, miterLimit: 10)
        #expect(closedRound.contains(CGPoint(x: -0.9, y: 0)))
        #expect(closedRound.contains(CGPoint(x: 10.9, y: 0)))
        #expect(closedRound.contains(CGPoint(x: 5, y: 0.9)))
    }

    @Test func coincidentPointsAreSkipped() {
        let path = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 0),
                                 CGPoint(x: 10, y: 1e-12), CGPoint(x: 10, y: 10)])
        let outline = path.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(outline.contains(CGPoint(x: 10.95, y: -0.95)))
        #expect(!outline.contains(CGPoint(x: 11.05, y: 0)))
        #expect(!outline.contains(CGPoint(x: 10, y: -1.05)))
    }

    @Test func nonFiniteSubpathsAreSkipped() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: CGFloat.nan, y: 5))
        path.addLine(to: CGPoint(x: 10, y: 10))
        path.move(to: CGPoint(x: 0, y: 20))
        path.addLine(to: CGPoint(x: 10, y: 20))
        path.move(to: CGPoint(x: 0, y: 30))
        path.addLine(to: CGPoint(x: CGFloat.infinity, y: 30))
        let outline = path.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(outline.contains(CGPoint(x: 5, y: 20)))
        #expect(!outline.contains(CGPoint(x: 5, y: 10)))
        #expect(outline.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        // A transform that overflows also skips the subpath.
        var sink = CountingSink()
        strokeOutline(polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 1e300, y: 0)]), style: StrokeStyle(width: 1),
               tolerance: 0.25, transform: CGAffineTransform(scaleX: 1e300, y: 1), into: &sink)
        #expect(sink.moves == 0)
    }

    @Test(arguments: [CGFloat(0), -1, .nan, .infinity])
    func unusableWidthStrokesNothing(width: CGFloat) {
        let path = polylinePath([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0)])
        #expect(path.copy(strokingWithWidth: width, lineCap: .round, lineJoin: .round, miterLimit: 10).isEmpty)
    }

    @Test func hugeCoordinatesAndWidthsFinish() {
        let path = polylinePath([CGPoint(x: -1e12, y: 3), CGPoint(x: 1e12, y: 7), CGPoint(x: 0, y: 1e12)])
        for width: CGFloat in [1, 1e9, 1e100] {
            var sink = CountingSink()
            strokeOutline(path, style: StrokeStyle(width: width, cap: .round, join: .round), tolerance: 1e-3,
                   transform: .identity, into: &sink)
            #expect(sink.allFinite)
            #expect(sink.lines < 20_000)
        }
    }

    @Test func millionSegmentPathCompletes() {
        let path = CGMutablePath()
        path.move(to: .zero)
        for i in 1...1_000_000 {
            path.addLine(to: CGPoint(x: CGFloat(i) * 0.01, y: i % 2 == 0 ? 0 : 1))
        }
        var sink = CountingSink()
        strokeOutline(path, style: StrokeStyle(width: 0.5, cap: .round, join: .round), tolerance: 0.25,
               transform: .identity, into: &sink)
        #expect(sink.moves == 1)
        #expect(sink.lines > 2_000_000)
    }

    @Test func outlinePiecesWindTheSameWay() {
        // Two crossing strokes overlap instead of cancelling.
        let path = CGMutablePath()
        path.addLines(between: [CGPoint(x: 0, y: 5), CGPoint(x: 10, y: 5)])
        path.addLines(between: [CGPoint(x: 5, y: 10), CGPoint(x: 5, y: 0)])
        path.addEllipse(in: CGRect(x: 3, y: 3, width: 4, height: 4))
        let outline = path.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(outline.contains(CGPoint(x: 5, y: 5)))
        #expect(outline.contains(CGPoint(x: 5, y: 3)))
        #expect(outline.contains(CGPoint(x: 3, y: 5)))
    }
}
