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
// - the sweep (`accumulateCurves`, after a band's line edges) walks each curve edge row by row
//   (the parameter at a row boundary from one square root) and, inside a row, column by column
//   (a second root at each grid line it crosses), and deposits each piece inside one cell as
//   its chord's trapezoid (the line edges' formula, heights in 1/256 px so a row's heights add
//   up exactly) plus its exact area against the chord, −h³·(b × a)/6 for the piece [u, u + h]
//   of Q(u) = q0 + b·u + a·u² (a × a = 0 leaves only that), added to its cell and taken from
//   the next — that pixel's coverage alone.
// No per-cell record is made: a curve edge costs one record, and the sweep touches the same
// cells chords would.
// Bounded work: coordinates beyond ±2²⁰ px fall back to chords; a row's column walk stops at the
// clip's sides (left of the clip a piece's height goes to cell 0, right of it nothing shows); a
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
        var cuts: (CGFloat, CGFloat) = (2, 2)
        if ax != 0 { let t = -bx / (2 * ax); if t > 0 && t < 1 { cuts.0 = t } }
        if ay != 0 { let t = -by / (2 * ay); if t > 0 && t < 1 { cuts.1 = t } }
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
    /// Y(u) = y0 + u·(by + u·ay) (px), u from 0 to 1 top to bottom; and the clip's sides.
    struct CurveSweep {
        var x0: Double, ax: Double, bx: Double, x2: Double
        var y0: Double, ay: Double, by: Double
        /// +1 if x grows along the curve, −1 if it falls.
        var sx: Double
        /// The area against the chord of the piece [u, u + h] is `lens`·h³ (cell units, signed
        /// by direction).
        var lens: Double
        var direction: Int
        /// The clip's left and right sides (px) and its first column.
        var left: Double, right: Double, firstColumn: Int

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

        /// The parameter in [lo, hi] where X(u) = g (X monotone in the direction `sx`).
        @inline(__always) func xRoot(_ g: Double, _ lo: Double, _ hi: Double) -> Double {
            let n = g - x0
            let den = bx + sx * max(bx * bx + 4 * ax * n, 0).squareRoot()
            guard den != 0 else { return lo }
            return min(max(2 * n / den, lo), hi)
        }
    }

    /// Deposits the curve edges' rows between fixed-point rows `top` and `bottom` into the band
    /// that starts at pixel row `bandTop` (the contract of `accumulate` for line edges).
    @inline(never)
    static func accumulateCurves(_ curves: UnsafeMutablePointer<CurveEdge>, count: Int, top: Int32, bottom: Int32,
                                 bandTop: Int, _ g: BandGeometry, acc: UnsafeMutablePointer<Int32>,
                                 bits: UnsafeMutablePointer<UInt64>) {
        let firstColumn = g.originX >> 8
        var i = 0
        while i < count {
            accumulateCurve(curves[i], top: top, bottom: bottom, bandTop: bandTop, g, firstColumn: firstColumn,
                            acc: acc, bits: bits)
            i &+= 1
        }
    }

    @inline(__always)
    static func accumulateCurve(_ c: CurveEdge, top: Int32, bottom: Int32, bandTop: Int, _ g: BandGeometry,
                                firstColumn: Int, acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>) {
        let yStart = Int(max(c.top, top)), yEnd = Int(min(c.bottom, bottom))
        guard yStart < yEnd else { return }
        let x0 = c.x0, x1 = c.x1, x2 = c.x2
        let ax = x0 - 2 * x1 + x2, bx = 2 * (x1 - x0)
        let ay = c.y0 - 2 * c.y1 + c.y2, by = 2 * (c.y1 - c.y0)
        let s = CurveSweep(x0: x0, ax: ax, bx: bx, x2: x2, y0: c.y0, ay: ay, by: by, sx: x2 >= x0 ? 1 : -1,
                           lens: Double(c.direction) * (by * ax - bx * ay) * (Double(Rasterizer.fullCoverage) / 6),
                           direction: Int(c.direction), left: Double(firstColumn),
                           right: Double(firstColumn &+ g.width), firstColumn: firstColumn)
        var u = 0.0, x = x0, ya = Int(c.top)
        if yStart > ya {
            ya = yStart
            u = s.yRoot(Double(yStart) * (1.0 / 256), 0, 1)
            x = s.x(u)
        }
        let row = yStart >> 8
        var rowAcc = acc + (row &- bandTop) &* g.stride
        var rowBits = bits + (row &- bandTop) &* g.wordsPerRow
        var boundary = (yStart & ~255) &+ 256
        let bottomEnd = Int(c.bottom)
        while true {
            let yb = min(boundary, yEnd)
            let ub: Double, xb: Double
            if yb == bottomEnd {
                ub = 1; xb = x2
            } else {
                ub = s.yRoot(Double(yb) * (1.0 / 256), u, 1)
                xb = s.x(ub)
            }
            curveRow(rowAcc, rowBits, s, u, x, ya, ub, xb, yb, g.width)
            if yb >= yEnd { return }
            u = ub; x = xb; ya = yb
            boundary &+= 256
            rowAcc += g.stride
            rowBits += g.wordsPerRow
        }
    }

    /// A curve edge's piece inside one row, from (ua, xa, ya) to (ub, xb, yb) (x in px, y fixed
    /// point): within one column inline, across several out of line.
    @inline(__always)
    static func curveRow(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>, _ s: CurveSweep,
                         _ ua: Double, _ xa: Double, _ ya: Int, _ ub: Double, _ xb: Double, _ yb: Int, _ width: Int) {
        let xl = min(xa, xb), xr = max(xa, xb)
        if xr <= s.left {
            acc[0] &+= Int32(truncatingIfNeeded: ((yb &- ya) &* s.direction) << 9)
            bits[0] |= 1
            return
        }
        if xl >= s.right { return }
        let left = CurveSweep.floor(xl)
        if left >= s.left && xr <= left + 1 {
            curvePiece(acc, bits, CurveSweep.index(left) &- s.firstColumn, (xa + xb - 2 * left) * 256, (yb &- ya) &* s.direction,
                       ub - ua, s.lens)
            return
        }
        curveColumns(acc, bits, s, ua, xa, ya, ub, xb, yb, width)
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

    /// A row piece across several columns: cut where it crosses each grid line inside the clip
    /// (the parameter from one root, the height rounded to 1/256 px so the row's heights add up
    /// exactly), each piece deposited in its cell; left of the clip the height goes to cell 0,
    /// right of it the walk stops.
    @inline(never)
    static func curveColumns(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>, _ s: CurveSweep,
                             _ ua: Double, _ xa: Double, _ ya: Int, _ ub: Double, _ xb: Double, _ yb: Int,
                             _ width: Int) {
        @inline(__always) func piece(_ xs: Double, _ xe: Double, _ y0: Int, _ y1: Int, _ h: Double) {
            let d = (y1 &- y0) &* s.direction
            let mid = (xs + xe) * 0.5
            if mid < s.left {
                acc[0] &+= Int32(truncatingIfNeeded: d << 9)
                bits[0] |= 1
                return
            }
            let grid = CurveSweep.floor(mid)
            let column = CurveSweep.index(grid) &- s.firstColumn
            if column >= width { return }
            curvePiece(acc, bits, column, (xs + xe - 2 * grid) * 256, d, h, s.lens)
        }
        /// A piece known to lie in grid column `grid` (px; `column` relative to the clip), inside
        /// the clip: no floor or conversion a cell.
        @inline(__always) func pieceIn(_ grid: Double, _ column: Int, _ xs: Double, _ xe: Double, _ y0: Int, _ y1: Int,
                                       _ h: Double) {
            curvePiece(acc, bits, column, (xs + xe - 2 * grid) * 256, (y1 &- y0) &* s.direction, h, s.lens)
        }
        var u = ua, x = xa, y = ya
        if s.sx > 0 {
            // Entering the clip from the left, or not: the first grid line to the right.
            var grid = CurveSweep.floor(x)
            if grid + 1 <= s.left {
                let g = s.left
                if g >= xb { piece(x, xb, y, yb, ub - u); return }
                let nu = s.xRoot(g, u, ub)
                let ny = min(max(Int(Rasterizer.fixed(s.y(nu))), y), yb)
                acc[0] &+= Int32(truncatingIfNeeded: ((ny &- y) &* s.direction) << 9)
                bits[0] |= 1
                u = nu; x = g; y = ny; grid = g
            }
            var column = CurveSweep.index(grid) &- s.firstColumn
            while true {
                let g = grid + 1
                if g >= xb { pieceIn(grid, column, x, xb, y, yb, ub - u); return }
                let nu = s.xRoot(g, u, ub)
                let ny = min(max(Int(Rasterizer.fixed(s.y(nu))), y), yb)
                pieceIn(grid, column, x, g, y, ny, nu - u)
                if g >= s.right { return }
                u = nu; x = g; y = ny; grid = g; column &+= 1
            }
        } else {
            // Starting right of the clip: walk in to its right side first (nothing shows there).
            var g = CurveSweep.ceil(x) - 1
            if g >= s.right {
                g = s.right
                if g <= xb { return }
                let nu = s.xRoot(g, u, ub)
                let ny = min(max(Int(Rasterizer.fixed(s.y(nu))), y), yb)
                u = nu; x = g; y = ny; g -= 1
            }
            var column = CurveSweep.index(g) &- s.firstColumn
            while true {
                if g <= xb {
                    if g < s.left { piece(x, xb, y, yb, ub - u) } else { pieceIn(g, column, x, xb, y, yb, ub - u) }
                    return
                }
                let nu = s.xRoot(g, u, ub)
                let ny = min(max(Int(Rasterizer.fixed(s.y(nu))), y), yb)
                pieceIn(g, column, x, g, y, ny, nu - u)
                if g <= s.left {
                    acc[0] &+= Int32(truncatingIfNeeded: ((yb &- ny) &* s.direction) << 9)
                    bits[0] |= 1
                    return
                }
                u = nu; x = g; y = ny; g -= 1; column &-= 1
            }
        }
    }
}
