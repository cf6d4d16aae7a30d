import Foundation

// A prototype of exact-area curves (issue 32, approach (b); docs/curves.md has the figures).
// Off unless an `EdgeSink` asks for it (`exactCurves`; the environment variable
// CRISP_EXACT_CURVES=1 turns it on for every fill of a process, for measuring).
//
// Contract: `addCubicExact` / a quadratic through it adds edges and cell corrections whose
// coverage is the exact area under the curve's quadratic approximation (within
// `quadraticTolerance` of the cubic), up to the 24.8 rounding of the pieces' ends:
// - a cubic becomes n quadratics, the midpoint quadratic of each of n equal parameter pieces
//   (its control point (3(c1 + c2) − q0 − q2)/4 from the piece's own cubic control points),
//   n from the bound √3/36·|P3 − 3P2 + 3P1 − P0|/n³ ≤ tolerance;
// - a quadratic is cut at its x and y extremes (monotone pieces), then where it crosses a
//   pixel grid line inside the clip box (a quadratic equation a crossing), so that each piece
//   lies inside one cell (or wholly outside the clip box);
// - each piece is deposited as its chord (an ordinary edge) plus the exact area between the
//   piece and its chord, −(α × β)/6 with α = h·Q′(u0), β = h²·(q0 − 2q1 + q2), as a correction
//   to its cell (+amount to the cell, −amount to the next: that pixel's coverage alone).
// The corrections are applied per band after the edges (`applyCorrections`).
// This prototype is an edge a crossed cell, which is what its cost measures.

/// An area added to one pixel's coverage (cell `column`, and its opposite to the next cell).
struct CellCorrection {
    var row: Int32
    var column: Int32
    var amount: Int32
}

extension Rasterizer {
    /// How far the quadratics may lie from the cubic they replace, in pixels.
    static let quadraticTolerance: CGFloat = 0.002
    /// The most grid crossings one monotone quadratic piece is cut at before it is flattened
    /// into chords instead (bounds the work for huge curves).
    static let maximumCrossings = 4096
    /// CRISP_EXACT_CURVES=1 in the environment: every `EdgeSink` takes curves whole.
    static let exactCurvesByDefault: Bool = ProcessInfo.processInfo.environment["CRISP_EXACT_CURVES"] == "1"

    /// Adds the cubic p0 … p3 (raster coordinates) by its exact area (see above).
    func addCubicExact(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) {
        let limit: CGFloat = 1_048_576
        func moderate(_ p: CGPoint) -> Bool { abs(p.x) < limit && abs(p.y) < limit }
        guard moderate(p0), moderate(p1), moderate(p2), moderate(p3) else {
            var sink = LineSink(rasterizer: self, current: p0)
            CGPath.flattenCubic(p0, p1, p2, p3, tolerance: 0.05, into: &sink)
            return
        }
        let dx = p3.x - 3 * p2.x + 3 * p1.x - p0.x, dy = p3.y - 3 * p2.y + 3 * p1.y - p0.y
        let bound = (dx * dx + dy * dy).squareRoot() * (3.0.squareRoot() / 36) / Rasterizer.quadraticTolerance
        let n = max(1, Int(min(cbrt(bound).rounded(.up), 256)))
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

    /// Adds the quadratic q0, q1, q2 (moderate raster coordinates) by its exact area.
    func addQuadraticExact(_ q0: CGPoint, _ q1: CGPoint, _ q2: CGPoint) {
        // Q(t) = q0 + t·(b + t·a)
        let ax = q0.x - 2 * q1.x + q2.x, ay = q0.y - 2 * q1.y + q2.y
        let bx = 2 * (q1.x - q0.x), by = 2 * (q1.y - q0.y)
        var cuts: (CGFloat, CGFloat) = (2, 2)
        if ax != 0 { let t = -bx / (2 * ax); if t > 0 && t < 1 { cuts.0 = t } }
        if ay != 0 { let t = -by / (2 * ay); if t > 0 && t < 1 { cuts.1 = t } }
        if cuts.1 < cuts.0 { cuts = (cuts.1, cuts.0) }
        let curve = Quadratic(q0: q0, ax: ax, ay: ay, bx: bx, by: by)
        var t0: CGFloat = 0, p0 = q0
        if cuts.0 < 1 {
            let p = curve.point(cuts.0)
            addMonotone(curve, 0, q0, cuts.0, p)
            t0 = cuts.0; p0 = p
        }
        if cuts.1 < 1 && cuts.1 > t0 {
            let p = curve.point(cuts.1)
            addMonotone(curve, t0, p0, cuts.1, p)
            t0 = cuts.1; p0 = p
        }
        addMonotone(curve, t0, p0, 1, q2)
    }

    struct Quadratic {
        var q0: CGPoint, ax: CGFloat, ay: CGFloat, bx: CGFloat, by: CGFloat
        @inline(__always) func point(_ t: CGFloat) -> CGPoint {
            CGPoint(x: q0.x + t * (bx + t * ax), y: q0.y + t * (by + t * ay))
        }
        /// The parameter in [lo, hi] where coordinate `axis` (0: x, 1: y) is `g`.
        func parameter(axis: Int, _ g: CGFloat, _ lo: CGFloat, _ hi: CGFloat) -> CGFloat {
            let a = axis == 0 ? ax : ay, b = axis == 0 ? bx : by, c = (axis == 0 ? q0.x : q0.y) - g
            var t: CGFloat
            if abs(a) <= 1e-12 * abs(b) {
                t = -c / b
            } else {
                let s = max(b * b - 4 * a * c, 0).squareRoot()
                let q = -0.5 * (b + (b < 0 ? -s : s))
                let r1 = q / a, r2 = q != 0 ? c / q : r1
                func distance(_ r: CGFloat) -> CGFloat { max(lo - r, r - hi, 0) }
                t = distance(r2) < distance(r1) ? r2 : r1
            }
            if !t.isFinite { return lo }
            return min(max(t, lo), hi)
        }
    }

    /// A piece monotone in x and y from (t0, p0) to (t1, p1), cut at every grid line inside
    /// the clip box it crosses.
    private func addMonotone(_ curve: Quadratic, _ t0: CGFloat, _ p0: CGPoint, _ t1: CGFloat, _ p1: CGPoint) {
        // The grid lines strictly between the ends, inside the clip box, in the order the
        // piece meets them.
        func lines(_ a: CGFloat, _ b: CGFloat, _ lowest: CGFloat, _ highest: CGFloat) -> (first: CGFloat, step: CGFloat, count: Int) {
            let lo = max(min(a, b).rounded(.down) + 1, lowest), hi = min(max(a, b).rounded(.up) - 1, highest)
            guard hi >= lo else { return (0, 0, 0) }
            let count = Int(hi - lo) + 1
            return b >= a ? (lo, 1, count) : (hi, -1, count)
        }
        let xs = lines(p0.x, p1.x, clipLeft, clipRight), ys = lines(p0.y, p1.y, clipTop, clipBottom)
        guard xs.count + ys.count <= Rasterizer.maximumCrossings else {
            var sink = LineSink(rasterizer: self, current: p0)
            let steps = 64
            for k in 1...steps {
                sink.lineTo(k == steps ? p1 : curve.point(t0 + (t1 - t0) * CGFloat(k) / CGFloat(steps)))
            }
            return
        }
        var i = 0, j = 0
        var nextX = xs.count > 0 ? curve.parameter(axis: 0, xs.first, t0, t1) : .infinity
        var nextY = ys.count > 0 ? curve.parameter(axis: 1, ys.first, t0, t1) : .infinity
        var u0 = t0, a = p0
        while i < xs.count || j < ys.count {
            var u1: CGFloat, b: CGPoint
            if i < xs.count && (j >= ys.count || nextX <= nextY) {
                let g = xs.first + xs.step * CGFloat(i)
                u1 = max(nextX, u0); b = curve.point(u1); b.x = g
                i += 1
                nextX = i < xs.count ? curve.parameter(axis: 0, g + xs.step, u1, t1) : .infinity
            } else {
                let g = ys.first + ys.step * CGFloat(j)
                u1 = max(nextY, u0); b = curve.point(u1); b.y = g
                j += 1
                nextY = j < ys.count ? curve.parameter(axis: 1, g + ys.step, u1, t1) : .infinity
            }
            addPiece(curve, u0, a, u1, b)
            u0 = u1; a = b
        }
        addPiece(curve, u0, a, t1, p1)
    }

    /// One piece inside one cell: its chord, and its area against the chord to its cell.
    private func addPiece(_ curve: Quadratic, _ u0: CGFloat, _ a: CGPoint, _ u1: CGFloat, _ b: CGPoint) {
        if a != b { addLine(a, b) }
        let h = u1 - u0
        guard h > 0 else { return }
        let alx = h * (curve.bx + 2 * u0 * curve.ax), aly = h * (curve.by + 2 * u0 * curve.ay)
        let bex = h * h * curve.ax, bey = h * h * curve.ay
        let amount = -(alx * bey - aly * bex) / 6 * CGFloat(Rasterizer.fullCoverage)
        guard abs(amount) >= 0.5, abs(amount) < CGFloat(Rasterizer.fullCoverage) * 2 else { return }
        let column = ((a.x + b.x) / 2).rounded(.down), row = ((a.y + b.y) / 2).rounded(.down)
        guard row >= clipTop, row < clipBottom, column >= clipLeft, column < clipRight else { return }
        addCorrection(CellCorrection(row: Int32(row), column: Int32(column), amount: Int32(amount.rounded())))
    }

    /// Flattened segments straight into the rasterizer (the prototype's fallbacks).
    struct LineSink: PathFlatteningSink {
        let rasterizer: Rasterizer
        var current: CGPoint
        mutating func moveTo(_ p: CGPoint) { current = p }
        mutating func lineTo(_ p: CGPoint) { rasterizer.addLine(current, p); current = p }
        mutating func closeSubpath() {}
    }
}
