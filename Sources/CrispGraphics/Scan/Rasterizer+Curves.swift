import Foundation

// Exact-area curves (issue 32; docs/curves.md has the measurements): curve edges walked inside
// the sweep, next to the line edges, depositing into the same cells.
//
// Contract: `addCubicExact(p0, p1, p2, p3)` (raster coordinates, any values) adds the cubic so
// that the coverage it deposits is the exact area under the cubic's quadratic approximation
// (within `quadraticTolerance` of the cubic), up to the 1/256-px rounding of the heights:
// - a cubic becomes n quadratics, the midpoint quadratic of each of n equal parameter pieces
//   (control point (3(c1 + c2) − q0 − q2)/4 from the piece's own cubic control points), n from
//   the bound √3/36·|P3 − 3P2 + 3P1 − P0|/n³ ≤ tolerance (a quadratic drawn as a cubic comes
//   back as itself: n = 1);
// - a quadratic is cut at its x and y extremes into monotone pieces, each stored once as a
//   `CurveEdge` (its three control points, top to bottom, and its ends' rows in fixed point),
//   culled, or moved onto the clip's left side, like a line edge (Rasterizer+Edges.swift);
// - the sweep (`accumulateCurves`, after a band's line edges) takes each curve edge's part inside
//   the band as two sorted lists of parameters, computed first: where it crosses the row
//   boundaries (one square root each) and where it crosses the grid lines inside the clip (one
//   each); it merges them, and each event ends a piece that lies inside one cell, which it
//   deposits as its chord's trapezoid (the line edges' formula, heights in 1/256 px so a row's
//   heights add up exactly) plus its exact area against the chord, −h³·(b × a)/6 for the piece
//   [u, u + h] of Q(u) = q0 + b·u + a·u² (a × a = 0 leaves only that), added to its cell and
//   taken from the next — that pixel's coverage alone. The roots come first so that their
//   square roots overlap, with no division (`RootForm`); walking row by row with the roots
//   inline, each waiting on the one before, took a quarter more time on the `curves` scene
//   (docs/performance.md, "The curve walk as a merge").
// No per-cell record is made: a curve edge costs one record, and the sweep touches the same
// cells chords would.
// Bounded work: coordinates beyond ±2²⁰ px fall back to chords; only the grid lines inside the
// clip are crossed, so an edge has at most the band's rows plus the clip's width plus one events
// (left of the clip a piece's height goes to cell 0, right of it nothing shows); a
// non-zero fill with more than `exactEdges` line and curve edges has its curves made chords
// before the sweep (the winding limit counts edges, Rasterizer+Accumulate.swift).

/// A monotone quadratic piece in raster coordinates, stored top to bottom (y0 ≤ y2), with the
/// rows of its ends in 24.8 fixed point.
struct CurveEdge {
    var x0: Double, y0: Double, x1: Double, y1: Double, x2: Double, y2: Double
    /// Fixed-point y of the ends (top < bottom).
    var top: Int32, bottom: Int32
    /// +1 for a curve that goes down in raster space, −1 for one that goes up.
    var direction: Int32
}

extension Rasterizer {
    /// How far the quadratics may lie from the cubic they replace, in pixels.
    /// 0.005 px is under 2 levels of 255 of area over a pixel's length (√2 px·0.005 px = 1.8
    /// levels at worst, and the midpoint quadratic's error changes sign along the piece); the
    /// exact-area walk needs no more (chords needed 0.05 px because their error is one-sided).
    static let quadraticTolerance: CGFloat = 0.005
    /// Whether fills, clips and glyphs take curves whole (their exact area) rather than as
    /// chords: on. CRISP_EXACT_CURVES=0 in the environment turns it off for a process, to compare
    /// against chords (docs/curves.md).
    static let exactCurvesByDefault: Bool = ProcessInfo.processInfo.environment["CRISP_EXACT_CURVES"] != "0"

    /// Adds the cubic p0 … p3 (raster coordinates) by its exact area (see above).
    func addCubicExact(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) {
        let limit: CGFloat = 1_048_576
        @inline(__always) func moderate(_ p: CGPoint) -> Bool { abs(p.x) < limit && abs(p.y) < limit }
        guard moderate(p0), moderate(p1), moderate(p2), moderate(p3) else {
            // Not finite: as a line (addLine takes any values); finite but huge: chords.
            guard p0.x.isFinite, p0.y.isFinite, p1.x.isFinite, p1.y.isFinite, p2.x.isFinite, p2.y.isFinite,
                  p3.x.isFinite, p3.y.isFinite else {
                addLine(p0, p3)
                return
            }
            var sink = LineSink(rasterizer: self, current: p0)
            CGPath.flattenCubic(p0, p1, p2, p3, tolerance: 0.05, into: &sink)
            return
        }
        // Wholly above, below or right of the clip: nothing shows (the control box holds the curve).
        if max(p0.y, p1.y, p2.y, p3.y) <= clipTop || min(p0.y, p1.y, p2.y, p3.y) >= clipBottom
            || min(p0.x, p1.x, p2.x, p3.x) >= clipRight || clipIsEmpty {
            return
        }
        // Wholly left of it: only its winding counts.
        if max(p0.x, p1.x, p2.x, p3.x) <= clipLeft {
            addLine(p0, p3)
            return
        }
        let dx = p3.x - 3 * p2.x + 3 * p1.x - p0.x, dy = p3.y - 3 * p2.y + 3 * p1.y - p0.y
        let bound = (dx * dx + dy * dy).squareRoot() * (3.0.squareRoot() / 36) / Rasterizer.quadraticTolerance
        let n = bound <= 1 ? 1 : Int(min(cbrt(bound).rounded(.up), 256))
        if n == 1 {
            addQuadraticExact(p0, CGPoint(x: (3 * (p1.x + p2.x) - p0.x - p3.x) / 4,
                                          y: (3 * (p1.y + p2.y) - p0.y - p3.y) / 4), p3)
            return
        }
        // B(t) = p0 + t·(c + t·(b + t·a)), B′(t) = c + t·(2b + 3t·a)
        let cx = 3 * (p1.x - p0.x), cy = 3 * (p1.y - p0.y)
        let bx = 3 * (p0.x - 2 * p1.x + p2.x), by = 3 * (p0.y - 2 * p1.y + p2.y)
        let ax = dx, ay = dy
        let h = 1 / CGFloat(n)
        var q0 = p0, d0 = CGPoint(x: cx, y: cy)
        for i in 1...n {
            let t = CGFloat(i) * h
            let q2 = i == n ? p3 : CGPoint(x: p0.x + t * (cx + t * (bx + t * ax)), y: p0.y + t * (cy + t * (by + t * ay)))
            let d2 = CGPoint(x: cx + t * (2 * bx + 3 * t * ax), y: cy + t * (2 * by + 3 * t * ay))
            // The piece's cubic control points, then the midpoint quadratic's control point.
            let c1x = q0.x + d0.x * h / 3, c1y = q0.y + d0.y * h / 3
            let c2x = q2.x - d2.x * h / 3, c2y = q2.y - d2.y * h / 3
            let control = CGPoint(x: (3 * (c1x + c2x) - q0.x - q2.x) / 4, y: (3 * (c1y + c2y) - q0.y - q2.y) / 4)
            addQuadraticExact(q0, control, q2)
            q0 = q2; d0 = d2
        }
    }

    /// Adds the quadratic q0, q1, q2 (moderate raster coordinates) as up to three monotone
    /// curve edges, cut at its x and y extremes.
    func addQuadraticExact(_ q0: CGPoint, _ q1: CGPoint, _ q2: CGPoint) {
        // Q(t) = q0 + t·(b + t·a)
        let ax = q0.x - 2 * q1.x + q2.x, ay = q0.y - 2 * q1.y + q2.y
        let bx = 2 * (q1.x - q0.x), by = 2 * (q1.y - q0.y)
        // Q′ = b + 2a·t has an extreme inside only where its ends' signs differ (most pieces of
        // a subdivided cubic have none: no division for them).
        let xTurns = bx * (bx + 2 * ax) < 0, yTurns = by * (by + 2 * ay) < 0
        if !xTurns && !yTurns {
            addMonotoneCurve(q0, q1, q2)
            return
        }
        var cuts: (CGFloat, CGFloat) = (2, 2)
        if xTurns { let t = -bx / (2 * ax); if t > 0 && t < 1 { cuts.0 = t } }
        if yTurns { let t = -by / (2 * ay); if t > 0 && t < 1 { cuts.1 = t } }
        if cuts.0 >= 1 && cuts.1 >= 1 {
            addMonotoneCurve(q0, q1, q2)
            return
        }
        if cuts.1 < cuts.0 { cuts = (cuts.1, cuts.0) }
        @inline(__always) func point(_ t: CGFloat) -> CGPoint {
            CGPoint(x: q0.x + t * (bx + t * ax), y: q0.y + t * (by + t * ay))
        }
        /// The piece [t0, t1] as its own quadratic: the control point on the tangent at t0.
        func piece(_ t0: CGFloat, _ a: CGPoint, _ t1: CGFloat, _ b: CGPoint) {
            let k = (t1 - t0) / 2
            let control = CGPoint(x: a.x + k * (bx + 2 * t0 * ax), y: a.y + k * (by + 2 * t0 * ay))
            addMonotoneCurve(a, control, b)
        }
        var t0: CGFloat = 0, p0 = q0
        if cuts.0 < 1 {
            let p = point(cuts.0)
            piece(0, q0, cuts.0, p)
            t0 = cuts.0; p0 = p
        }
        if cuts.1 < 1 && cuts.1 > t0 {
            let p = point(cuts.1)
            piece(t0, p0, cuts.1, p)
            t0 = cuts.1; p0 = p
        }
        piece(t0, p0, 1, q2)
    }

    /// Stores a monotone quadratic (moderate raster coordinates) as a curve edge, or drops it or
    /// moves it onto the clip's left side where it cannot show.
    func addMonotoneCurve(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint) {
        segmentsOffered &+= 1
        let down = p0.y <= p2.y
        let a = down ? p0 : p2, b = down ? p2 : p0
        let direction: Int32 = down ? 1 : -1
        if b.y <= clipTop || a.y >= clipBottom || clipIsEmpty { return }
        let lo = min(a.x, b.x), hi = max(a.x, b.x)
        if lo >= clipRight { return }
        if hi <= clipLeft {
            appendEdge(clipLeft, a.y, clipLeft, b.y, direction)
            return
        }
        let top = Rasterizer.fixed(a.y), bottom = Rasterizer.fixed(b.y)
        // Less than 1/512 px high: no height at this precision (and an area under w/512 px²).
        guard top < bottom else { return }
        // The control point inside the ends' box: the piece is monotone, up to rounding.
        let cx = min(max(p1.x, lo), hi), cy = min(max(p1.y, a.y), b.y)
        if curveCount == curveCapacity { growCurves() }
        (curves + curveCount).initialize(to: CurveEdge(x0: a.x, y0: a.y, x1: cx, y1: cy, x2: b.x, y2: b.y,
                                                       top: top, bottom: bottom, direction: direction))
        curveCount &+= 1
        minY = min(minY, top)
        maxY = max(maxY, bottom)
        minX = min(minX, Rasterizer.fixed(lo))
        maxX = max(maxX, Rasterizer.fixed(hi))
    }

    func growCurves() {
        let grown = UnsafeMutablePointer<CurveEdge>.allocate(capacity: curveCapacity * 2)
        grown.moveInitialize(from: curves, count: curveCount)
        curves.deallocate()
        curves = grown
        curveCapacity *= 2
    }

    /// Replaces the curve edges by chords within 0.05 px (the winding limit's fallback).
    func flattenCurvesToEdges() {
        let count = curveCount
        curveCount = 0
        for i in 0..<count {
            let c = curves[i]
            let ax = c.x0 - 2 * c.x1 + c.x2, ay = c.y0 - 2 * c.y1 + c.y2
            // A quadratic's chords of n equal pieces lie within |a|/(4n²).
            let n = max(1, min(64, Int(((ax * ax + ay * ay).squareRoot() * 5).squareRoot().rounded(.up))))
            func point(_ t: Double) -> CGPoint {
                let s = 1 - t
                return CGPoint(x: s * s * c.x0 + 2 * s * t * c.x1 + t * t * c.x2,
                               y: s * s * c.y0 + 2 * s * t * c.y1 + t * t * c.y2)
            }
            var previous = CGPoint(x: c.x0, y: c.y0)
            for k in 1...n {
                let p = k == n ? CGPoint(x: c.x2, y: c.y2) : point(Double(k) / Double(n))
                if c.direction > 0 { addLine(previous, p) } else { addLine(p, previous) }
                previous = p
            }
        }
    }

    /// Flattened segments straight into the rasterizer (the fallback for huge curves).
    struct LineSink: PathFlatteningSink {
        let rasterizer: Rasterizer
        var current: CGPoint
        mutating func moveTo(_ p: CGPoint) { current = p }
        mutating func lineTo(_ p: CGPoint) { rasterizer.addLine(current, p); current = p }
        mutating func closeSubpath() {}
    }

    // MARK: The sweep

    /// A curve edge's polynomials for the sweep, in absolute raster coordinates (so that a
    /// piece's values do not depend on the clip): X(u) = x0 + u·(bx + u·ax),
    /// Y(u) = y0 + u·(by + u·ay) (px), u from 0 to 1 top to bottom.
    struct CurveSweep {
        var x0: Double, ax: Double, bx: Double
        var y0: Double, ay: Double, by: Double
        /// The area against the chord of the piece [u, u + h] is `lens`·h³ (cell units, signed
        /// by direction).
        var lens: Double

        @inline(__always) func x(_ u: Double) -> Double { x0 + u * (bx + u * ax) }

        /// floor(v) for |v| < 2⁵¹ without a libm call (the default target has no SSE4.1
        /// `roundsd`, so `rounded(.down)` is a call): round to nearest by the 1.5·2⁵² trick, then
        /// one step down where that rounded up. NaN stays NaN.
        @inline(__always) static func floor(_ v: Double) -> Double {
            let r = (v + 6_755_399_441_055_744) - 6_755_399_441_055_744
            return r > v ? r - 1 : r
        }
        /// ceil(v), the same way.
        @inline(__always) static func ceil(_ v: Double) -> Double {
            let r = (v + 6_755_399_441_055_744) - 6_755_399_441_055_744
            return r < v ? r + 1 : r
        }
        /// An integral `v` (|v| < 2³¹) as an Int without the trapping conversion.
        @inline(__always) static func index(_ v: Double) -> Int {
            Int(Int32(truncatingIfNeeded: (v + 6_755_399_441_055_744).bitPattern))
        }
        @inline(__always) func y(_ u: Double) -> Double { y0 + u * (by + u * ay) }

        /// The parameter in [lo, hi] where Y(u) = v (Y is non-decreasing: by ≥ 0, by + 2ay ≥ 0),
        /// in the form without cancellation.
        @inline(__always) func yRoot(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
            let n = v - y0
            let den = by + max(by * by + 4 * ay * n, 0).squareRoot()
            guard den > 0 else { return lo }
            return min(max(2 * n / den, lo), hi)
        }
    }

    /// The root u of a·u² + b·u = n on a monotone piece (b + 2a·u has the sign `sign` on
    /// [0, 1]) without a division: u = (sign·√(b² + 4a·n) − b)·1/(2a), which loses to
    /// cancellation about |b|/|a| units of the last place (at most 2²⁵, an error under 10⁻⁸ in
    /// u), or, for a piece straighter than that, the series n/b − a·n²/b³ (its next term is
    /// under 10⁻¹⁴). Out of [0, 1] or not finite where the piece has no such root; the callers
    /// clamp (a comparison with NaN is false).
    struct RootForm {
        var c0: Double, c1: Double, c2: Double, b2: Double, a4: Double, sign: Double, series: Bool
        @inline(__always) init(a: Double, b: Double, sign: Double) {
            series = abs(a) * 33_554_432 < abs(b)
            self.sign = sign
            b2 = b * b
            a4 = 4 * a
            if series {
                let ib = 1 / b
                c0 = ib; c1 = -a * ib * ib * ib; c2 = 0
            } else {
                c0 = 1 / (2 * a); c1 = 0; c2 = b
            }
        }
        @inline(__always) func root(_ n: Double) -> Double {
            if series { return n * (c0 + n * c1) }
            let d = b2 + a4 * n
            return (sign * (d > 0 ? d : 0).squareRoot() - c2) * c0
        }
    }

    /// Deposits the curve edges' rows between fixed-point rows `top` and `bottom` into the band
    /// that starts at pixel row `bandTop` (the contract of `accumulate` for line edges).
    /// `scratch` holds four regions of the band's rows plus the clip's width plus 8 values.
    @inline(never)
    static func accumulateCurves(_ curves: UnsafeMutablePointer<CurveEdge>, count: Int, top: Int32, bottom: Int32,
                                 bandTop: Int, _ g: BandGeometry, acc: UnsafeMutablePointer<Int32>,
                                 bits: UnsafeMutablePointer<UInt64>, scratch: UnsafeMutablePointer<Double>) {
        let firstColumn = g.originX >> 8
        let region = g.bandRows &+ g.width &+ 8
        var i = 0
        while i < count {
            accumulateCurve(curves[i], top: top, bottom: bottom, bandTop: bandTop, g, firstColumn: firstColumn,
                            acc: acc, bits: bits, scratch: scratch, scratchRegion: region)
            i &+= 1
        }
    }

    /// One curve edge's part inside the band, as a merge of two sorted lists of parameters: where
    /// it crosses the row boundaries and where it crosses the grid lines inside the clip (both
    /// computed first, each root independent of the others, so that their square roots and
    /// divisions overlap), each event ending a piece that lies inside one cell.
    @inline(__always)
    static func accumulateCurve(_ c: CurveEdge, top: Int32, bottom: Int32, bandTop: Int, _ g: BandGeometry,
                                firstColumn: Int, acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>,
                                scratch: UnsafeMutablePointer<Double>, scratchRegion: Int) {
        let yStart = Int(max(c.top, top)), yEnd = Int(min(c.bottom, bottom))
        guard yStart < yEnd else { return }
        let x0 = c.x0, x1 = c.x1, x2 = c.x2
        let ax = x0 - 2 * x1 + x2, bx = 2 * (x1 - x0)
        let ay = c.y0 - 2 * c.y1 + c.y2, by = 2 * (c.y1 - c.y0)
        let width = g.width
        let s = CurveSweep(x0: x0, ax: ax, bx: bx, y0: c.y0, ay: ay, by: by,
                           lens: Double(c.direction) * (by * ax - bx * ay) * (Double(Rasterizer.fullCoverage) / 6))
        // The ends of the part inside the band.
        var u0 = 0.0, xs = x0
        if yStart > Int(c.top) {
            u0 = s.yRoot(Double(yStart) * (1.0 / 256), 0, 1)
            xs = s.x(u0)
        }
        // The row boundaries strictly inside, then the end.
        let region = scratchRegion
        let rowU = scratch, rowX = scratch + region
        var rows = 0
        var lo = u0
        var boundary = (yStart & ~255) &+ 256
        // Branch-free and without a division, so that the roots' square roots overlap: see
        // `RootForm`.
        let rowRoot = RootForm(a: s.ay, b: s.by, sign: 1)
        while boundary < yEnd {
            var r = rowRoot.root(Double(boundary) * (1.0 / 256) - s.y0)
            r = r > lo ? r : lo
            r = r < 1 ? r : 1
            rowU[rows] = r
            rowX[rows] = s.x(r)
            lo = r
            rows &+= 1
            boundary &+= 256
        }
        let u1: Double, xe: Double
        if yEnd == Int(c.bottom) {
            u1 = 1; xe = x2
        } else {
            u1 = s.yRoot(Double(yEnd) * (1.0 / 256), lo, 1)
            xe = s.x(u1)
        }
        rowU[rows] = 4   // past every parameter: the merge takes the columns left
        // The grid lines crossed inside the clip, in the curve's order: those right of its start
        // and left of its end (or the other way), from the clip's left side to its right side.
        let colU = scratch + 2 &* region, colY = scratch + 3 &* region
        let sx = x2 >= x0 ? 1 : -1
        let firstGrid: Int, crossings: Int
        if sx > 0 {
            firstGrid = max(CurveSweep.index(CurveSweep.floor(xs)) &+ 1, firstColumn)
            let last = min(CurveSweep.index(CurveSweep.ceil(xe)) &- 1, firstColumn &+ width)
            crossings = max(last &- firstGrid &+ 1, 0)
        } else {
            firstGrid = min(CurveSweep.index(CurveSweep.ceil(xs)) &- 1, firstColumn &+ width)
            let last = max(CurveSweep.index(CurveSweep.floor(xe)) &+ 1, firstColumn)
            crossings = max(firstGrid &- last &+ 1, 0)
        }
        lo = u0
        var k = 0
        var grid = Double(firstGrid)
        let step = Double(sx)
        let columnRoot = RootForm(a: ax, b: bx, sign: step)
        while k < crossings {
            var r = columnRoot.root(grid - x0)
            r = r > lo ? r : lo
            r = r < u1 ? r : u1
            colU[k] = r
            colY[k] = Double(Rasterizer.fixed(s.y(r)))
            lo = r
            k &+= 1
            grid += step
        }
        colU[crossings] = 4
        // The merge: each event ends the current piece, in the current cell.
        let direction = Int(c.direction), lens = s.lens
        let stride = g.stride, wordsPerRow = g.wordsPerRow
        let columnShift = sx > 0 ? -1 : 0
        let row = (yStart >> 8) &- bandTop
        var rowAcc = acc + row &* stride
        var rowBits = bits + row &* wordsPerRow
        var nextGrid = firstGrid
        var u = u0, x = xs, y = yStart
        var rowEnd = (yStart & ~255) &+ 256
        var ri = 0, ci = 0
        /// The piece from (u, x, y) to (nu, nx, ny) in the column left of `nextGrid` (x growing)
        /// or right of it (x falling): left of the clip its height goes to cell 0, right of it
        /// nothing shows.
        @inline(__always) func deposit(_ nu: Double, _ nx: Double, _ ny: Int) {
            let column = nextGrid &+ columnShift
            let rel = column &- firstColumn
            let d = (ny &- y) &* direction
            if rel < 0 {
                rowAcc[0] &+= Int32(truncatingIfNeeded: d << 9)
                rowBits[0] |= 1
            } else if rel < width {
                curvePiece(rowAcc, rowBits, rel, (x + nx - 2 * Double(column)) * 256, d, nu - u, lens)
            }
        }
        var events = rows &+ crossings
        while events > 0 {
            let ur = rowU[ri], uc = colU[ci]
            if ur <= uc {
                let nx = rowX[ri]
                deposit(ur, nx, rowEnd)
                u = ur; x = nx; y = rowEnd
                rowEnd &+= 256
                rowAcc += stride
                rowBits += wordsPerRow
                ri &+= 1
            } else {
                let ny = min(max(Int(colY[ci]), y), min(rowEnd, yEnd))
                let nx = Double(nextGrid)
                deposit(uc, nx, ny)
                u = uc; x = nx; y = ny
                nextGrid &+= sx
                ci &+= 1
            }
            events &-= 1
        }
        deposit(u1, xe, yEnd)
    }

    /// One piece inside column `column` (visible, relative to the clip): the chord's trapezoid,
    /// h·(512 − f) to the cell and h·f to the next (f = the sum of the ends' x offsets in the
    /// column, 1/256 px), plus the piece's area against its chord (`lens`·h³ for parameter
    /// length h) to the cell and its opposite to the next.
    @inline(__always)
    static func curvePiece(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>, _ column: Int,
                           _ f: Double, _ d: Int, _ h: Double, _ lens: Double) {
        let v = Double(d) * (512 - f) + lens * (h * h * h)
        let cell = Int32(truncatingIfNeeded: (v + 6_755_399_441_055_744).bitPattern)
        acc[column] &+= cell
        acc[column &+ 1] &+= Int32(truncatingIfNeeded: d << 9) &- cell
        bits[column &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: column)
    }
}
