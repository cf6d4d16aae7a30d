import Foundation

// Flattening turns curves into polylines whose distance from the true curve stays below a
// tolerance in the *output* space (device pixels when the rasterizer calls it), so a curve
// scaled up by the CTM is still smooth. The segment count comes from Wang's formula: for a
// Bézier of degree d with control points P0…Pd, n uniform steps in t keep the error below tol if
//     n ≥ sqrt( d(d−1)/8 · max|Pi − 2Pi+1 + Pi+2| / tol )
// (quadratic: sqrt(M / (4·tol)); cubic: sqrt(3·M / (4·tol))). Uniform steps evaluated in the
// power basis are cheap and branch-free; adaptive de Casteljau subdivision was rejected because
// its recursion costs more than the few extra segments Wang's bound can produce.
//
// Curves whose control box lies wholly outside `cullRect` are replaced by their chord: above,
// below or right of the visible area they draw nothing, and left of it only their winding
// counts, which the chord has too. This is what keeps a huge or far-away curve cheap.

/// Receives a flattened path: subpaths of straight segments.
protocol PathFlatteningSink {
    mutating func moveTo(_ p: CGPoint)
    mutating func lineTo(_ p: CGPoint)
    /// Ends the current subpath with a segment back to its start.
    mutating func closeSubpath()
}

/// The most segments one curve is split into, whatever its size: bounds time and memory for
/// absurd coordinates.
let maximumSegmentsPerCurve = 2048

extension CGPath {
    /// Emits the path transformed by `transform`, with curves flattened to `tolerance` in the
    /// transformed space. Subpaths containing a non-finite point (before or after the transform)
    /// are skipped whole, so that a stray NaN never leaves an unclosed outline behind.
    ///
    /// With `preservesArea` (filling), each curve piece's chord is moved off the curve so that it
    /// keeps the piece's area (see `emitAreaPreserving`); without it (queries, dashing tests)
    /// every emitted point lies on the curve.
    func flatten<S: PathFlatteningSink>(transform t: CGAffineTransform, tolerance: CGFloat,
                                        cullRect: CGRect? = nil, preservesArea: Bool = false, into sink: inout S) {
        let tol = max(tolerance, 1e-4)
        let cull = cullRect ?? .infinite
        let useCull = cullRect != nil
        let transformIsModerate = [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy { abs($0) < 1e150 }
        points.withUnsafeBufferPointer { pts in
            var i = 0          // index into points
            var v = 0          // index into verbs
            let verbCount = verbs.count
            var last = CGPoint.zero
            while v < verbCount {
                // One subpath: a move and everything up to (not including) the next move.
                let subpathVerbStart = v, subpathPointStart = i
                var subpathEndVerb = v + 1, subpathEndPoint = i + verbs[v].pointCount
                while subpathEndVerb < verbCount, verbs[subpathEndVerb] != .moveToPoint {
                    subpathEndPoint += verbs[subpathEndVerb].pointCount
                    subpathEndVerb += 1
                }
                // Points below 1e150 under coefficients below 1e150 cannot overflow; only beyond
                // that (or with a non-finite point) is each transformed point checked.
                var finite = true
                for k in subpathPointStart..<subpathEndPoint {
                    let p = pts[k]
                    if !(abs(p.x) < 1e150 && abs(p.y) < 1e150) || !transformIsModerate {
                        let q = t.apply(p.x, p.y)
                        if !q.x.isFinite || !q.y.isFinite { finite = false; break }
                    }
                }
                v = subpathEndVerb
                i = subpathEndPoint
                guard finite else { continue }
                var pi = subpathPointStart
                // The last chord of an area-keeping curve, until what follows is known: a curve
                // meets it at the two moved chords' intersection, anything else at its end point.
                var carry = AreaCarry()
                for vi in subpathVerbStart..<subpathEndVerb {
                    let verb = verbs[vi]
                    if carry.isSet, verb != .addQuadCurveToPoint, verb != .addCurveToPoint {
                        CGPath.finishCarry(&carry, at: last, into: &sink)
                    }
                    switch verb {
                    case .moveToPoint:
                        last = t.apply(pts[pi].x, pts[pi].y)
                        sink.moveTo(last)
                        pi += 1
                    case .addLineToPoint:
                        last = t.apply(pts[pi].x, pts[pi].y)
                        sink.lineTo(last)
                        pi += 1
                    case .addQuadCurveToPoint:
                        let c = t.apply(pts[pi].x, pts[pi].y), e = t.apply(pts[pi + 1].x, pts[pi + 1].y)
                        if useCull, !CGPath.controlBox(last, c, e).intersects(cull) {
                            if carry.isSet { CGPath.finishCarry(&carry, at: last, into: &sink) }
                            sink.lineTo(e)
                        } else if preservesArea {
                            let ddx = last.x - 2 * c.x + e.x, ddy = last.y - 2 * c.y + e.y
                            let n = CGPath.segmentCount(secondDifference: (ddx * ddx + ddy * ddy).squareRoot(), factor: 0.25, tolerance: tol)
                            CGPath.emitAreaPreserving(last, c: CGPoint(x: 2 * (c.x - last.x), y: 2 * (c.y - last.y)),
                                                      b: CGPoint(x: ddx, y: ddy), a: .zero, end: e, segments: n,
                                                      carry: &carry, into: &sink)
                        } else {
                            CGPath.flattenQuad(last, c, e, tolerance: tol, into: &sink)
                        }
                        last = e
                        pi += 2
                    case .addCurveToPoint:
                        let c1 = t.apply(pts[pi].x, pts[pi].y), c2 = t.apply(pts[pi + 1].x, pts[pi + 1].y)
                        let e = t.apply(pts[pi + 2].x, pts[pi + 2].y)
                        if useCull, !CGPath.controlBox(last, c1, c2, e).intersects(cull) {
                            if carry.isSet { CGPath.finishCarry(&carry, at: last, into: &sink) }
                            sink.lineTo(e)
                        } else if preservesArea {
                            let d1x = last.x - 2 * c1.x + c2.x, d1y = last.y - 2 * c1.y + c2.y
                            let d2x = c1.x - 2 * c2.x + e.x, d2y = c1.y - 2 * c2.y + e.y
                            let m = max((d1x * d1x + d1y * d1y).squareRoot(), (d2x * d2x + d2y * d2y).squareRoot())
                            let n = CGPath.segmentCount(secondDifference: m, factor: 0.75, tolerance: tol)
                            let cx = 3 * (c1.x - last.x), cy = 3 * (c1.y - last.y), bx = 3 * d1x, by = 3 * d1y
                            CGPath.emitAreaPreserving(last, c: CGPoint(x: cx, y: cy), b: CGPoint(x: bx, y: by),
                                                      a: CGPoint(x: e.x - last.x - cx - bx, y: e.y - last.y - cy - by), end: e,
                                                      segments: n, carry: &carry, into: &sink)
                        } else {
                            CGPath.flattenCubic(last, c1, c2, e, tolerance: tol, into: &sink)
                        }
                        last = e
                        pi += 3
                    case .closeSubpath:
                        sink.closeSubpath()
                    }
                }
                if carry.isSet { CGPath.finishCarry(&carry, at: last, into: &sink) }
            }
        }
    }

    static func controlBox(_ p: CGPoint...) -> CGRect {
        var minX = p[0].x, maxX = p[0].x, minY = p[0].y, maxY = p[0].y
        for q in p.dropFirst() {
            minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Number of uniform segments for a curve with second-difference magnitude `m`
    /// (`factor` = d(d−1)/8: 1/4 for quadratics, 3/4 for cubics).
    @inline(__always)
    static func segmentCount(secondDifference m: CGFloat, factor: CGFloat, tolerance: CGFloat) -> Int {
        let n = (factor * m / tolerance).squareRoot().rounded(.up)
        // Clamp before converting: a curve bent beyond ~1e37 device pixels gives an estimate
        // that is finite but far beyond Int's range (and NaN fails every comparison).
        guard n < CGFloat(maximumSegmentsPerCurve) else { return maximumSegmentsPerCurve }
        return max(1, Int(n))
    }

    static func flattenQuad<S: PathFlatteningSink>(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint,
                                                   tolerance: CGFloat, into sink: inout S) {
        let ddx = p0.x - 2 * p1.x + p2.x, ddy = p0.y - 2 * p1.y + p2.y
        let n = segmentCount(secondDifference: (ddx * ddx + ddy * ddy).squareRoot(), factor: 0.25, tolerance: tolerance)
        // B(t) = p0 + 2t(p1 − p0) + t²(p0 − 2p1 + p2)
        let bx = 2 * (p1.x - p0.x), by = 2 * (p1.y - p0.y)
        let step = 1 / CGFloat(n)
        for k in 1..<max(n, 1) {
            let u = CGFloat(k) * step
            sink.lineTo(CGPoint(x: p0.x + u * (bx + u * ddx), y: p0.y + u * (by + u * ddy)))
        }
        sink.lineTo(p2)
    }

    static func flattenCubic<S: PathFlatteningSink>(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
                                                    tolerance: CGFloat, into sink: inout S) {
        let d1x = p0.x - 2 * p1.x + p2.x, d1y = p0.y - 2 * p1.y + p2.y
        let d2x = p1.x - 2 * p2.x + p3.x, d2y = p1.y - 2 * p2.y + p3.y
        let m = max((d1x * d1x + d1y * d1y).squareRoot(), (d2x * d2x + d2y * d2y).squareRoot())
        let n = segmentCount(secondDifference: m, factor: 0.75, tolerance: tolerance)
        // Power basis: B(t) = a t³ + b t² + c t + p0
        let cx = 3 * (p1.x - p0.x), cy = 3 * (p1.y - p0.y)
        let bx = 3 * d1x, by = 3 * d1y
        let ax = p3.x - p0.x - cx - bx, ay = p3.y - p0.y - cy - by
        let step = 1 / CGFloat(n)
        for k in 1..<max(n, 1) {
            let u = CGFloat(k) * step
            sink.lineTo(CGPoint(x: p0.x + u * (cx + u * (bx + u * ax)),
                                y: p0.y + u * (cy + u * (by + u * ay))))
        }
        sink.lineTo(p3)
    }

    /// The signed area between the piece [t0, t0 + h] of B(t) = p0 + c·t + b·t² + a·t³ and its
    /// chord (positive when the piece turns left, y up). In the piece's own parameter u ∈ [0, 1],
    /// B − B(t0) = α·u + β·u² + γ·u³ with α = h·B′(t0), β = h²·(b + 3a·t0), γ = h³·a, and
    /// ½∫(B − B(t0)) × B′ du = α×β/6 + α×γ/4 + β×γ/10 (for a quadratic, 2/3 of the triangle
    /// of the chord and the piece's control point).
    @inline(__always)
    static func pieceArea(c: CGPoint, b: CGPoint, a: CGPoint, t0: CGFloat, h: CGFloat) -> CGFloat {
        let h2 = h * h
        let alx = h * (c.x + t0 * (2 * b.x + 3 * a.x * t0)), aly = h * (c.y + t0 * (2 * b.y + 3 * a.y * t0))
        let bex = h2 * (b.x + 3 * a.x * t0), bey = h2 * (b.y + 3 * a.y * t0)
        let gax = h2 * h * a.x, gay = h2 * h * a.y
        return (alx * bey - aly * bex) / 6 + (alx * gay - aly * gax) / 4 + (bex * gay - bey * gax) / 10
    }

    /// Flattens B(t) = p0 + c·t + b·t² + a·t³ (t ∈ [0, 1], B(1) = `end`) into `n` uniform pieces
    /// whose polygon keeps the curve's area piece by piece.
    ///
    /// A chord D of a piece whose area against the curve is A moves sideways by v = A/|D|²·(D.y, −D.x)
    /// (so v × D = A: the parallelogram it sweeps is the missing area). Neighbouring moved
    /// chords meet at their intersection, p_k + w with w × D_k = A_k and w × D_k+1 = A_k+1; where
    /// that is ill-conditioned (nearly parallel chords, an inflection, |w| beyond twice the
    /// larger offset) both moved ends are emitted, a tiny connecting piece. The curve's own end
    /// points stay where they are, joined to the first and last moved chords by pieces |v| long,
    /// so the path around the curve is unchanged. On a circle the polygon is then 2/3 of the
    /// sagitta outside at the vertices and 1/3 inside mid-chord, instead of all of it inside.
    static func emitAreaPreserving<S: PathFlatteningSink>(_ p0: CGPoint, c: CGPoint, b: CGPoint, a: CGPoint, end: CGPoint,
                                                          segments n: Int, carry: inout AreaCarry, into sink: inout S) {
        let h = 1 / CGFloat(n)
        let negligibleSquared = movedEndNegligible * movedEndNegligible
        var previous = p0
        // A curve before this one counts as the previous piece.
        let hasCarry = carry.isSet
        var previousD = carry.d, previousArea = carry.area
        var k = 1
        while k <= n {
            let p: CGPoint
            if k == n {
                p = end
            } else {
                let u = CGFloat(k) * h
                p = CGPoint(x: p0.x + u * (c.x + u * (b.x + u * a.x)), y: p0.y + u * (c.y + u * (b.y + u * a.y)))
            }
            let d = CGPoint(x: p.x - previous.x, y: p.y - previous.y)
            let area = pieceArea(c: c, b: b, a: a, t0: CGFloat(k - 1) * h, h: h)
            // The vertex between the previous piece and this one: w × D_prev = A_prev, w × D = A.
            let det = previousD.x * d.y - previousD.y * d.x
            let wx = (previousD.x * area - d.x * previousArea) / det
            let wy = (previousD.y * area - d.y * previousArea) / det
            // |w|² ≤ 4·max(|v_prev|², |v|²), |v|² = A²/|D|², without dividing.
            let l2 = d.x * d.x + d.y * d.y, pl2 = previousD.x * previousD.x + previousD.y * previousD.y
            let w2 = wx * wx + wy * wy
            // One inlined call of the sink (the rasterizer's edge code) for the common vertices.
            var vertex = previous
            var isCommon = k > 1 || hasCarry
            if isCommon, w2 < .infinity, w2 * l2 * pl2 <= 4 * max(previousArea * previousArea * l2, area * area * pl2) {
                vertex = CGPoint(x: previous.x + wx, y: previous.y + wy)
            } else if isCommon, previousArea * previousArea < pl2 * negligibleSquared, area * area < l2 * negligibleSquared {
                // Both offsets negligible (nearly straight pieces): the vertex stays on the curve.
            } else {
                isCommon = false
                emitMovedEnds(at: previous, previousD, previousArea, d, area, hasPrevious: k > 1 || hasCarry, hasNext: true, into: &sink)
            }
            if isCommon { sink.lineTo(vertex) }
            previous = p; previousD = d; previousArea = area
            k += 1
        }
        carry = AreaCarry(d: previousD, area: previousArea, isSet: true)
    }

    /// Ends a carried curve at its end point `p`: its last moved chord's end, then `p`.
    @inline(never)
    static func finishCarry<S: PathFlatteningSink>(_ carry: inout AreaCarry, at p: CGPoint, into sink: inout S) {
        emitMovedEnds(at: p, carry.d, carry.area, .zero, 0, hasPrevious: true, hasNext: false, into: &sink)
        carry = AreaCarry()
    }

    /// Offsets below this (device px) are left out: lost in the rasterizer's 1/256 px grid.
    static let movedEndNegligible: CGFloat = 1.0 / 1024

    /// The rare vertices of `emitAreaPreserving`: at `p`, the end of the previous moved chord (D
    /// `d0`, area `a0`) and the start of the next (`d1`, `a1`), each left out when its offset
    /// is negligible or not finite; after the last piece, the curve's end point itself.
    @inline(never)
    static func emitMovedEnds<S: PathFlatteningSink>(at p: CGPoint, _ d0: CGPoint, _ a0: CGFloat, _ d1: CGPoint, _ a1: CGFloat,
                                                     hasPrevious: Bool, hasNext: Bool, into sink: inout S) {
        func offset(_ d: CGPoint, _ area: CGFloat) -> CGPoint? {
            let l2 = d.x * d.x + d.y * d.y
            guard l2 > 0 else { return nil }
            let k = area / l2
            let v = CGPoint(x: k * d.y, y: -k * d.x)
            guard v.x.isFinite, v.y.isFinite, v.x * v.x + v.y * v.y > movedEndNegligible * movedEndNegligible else { return nil }
            return v
        }
        let v0 = hasPrevious ? offset(d0, a0) : nil, v1 = hasNext ? offset(d1, a1) : nil
        if let v0 { sink.lineTo(CGPoint(x: p.x + v0.x, y: p.y + v0.y)) }
        if let v1, v1 != v0 { sink.lineTo(CGPoint(x: p.x + v1.x, y: p.y + v1.y)) }
        // Between two pieces, an unmoved vertex is still a vertex.
        if v0 == nil, v1 == nil, hasPrevious, hasNext { sink.lineTo(p) }
        if !hasNext { sink.lineTo(p) }
    }
}

/// The last piece of an area-keeping curve whose end is not emitted yet (`CGPath.flatten`).
struct AreaCarry {
    var d = CGPoint.zero
    var area: CGFloat = 0
    var isSet = false
}

/// Collects a flattened path as arrays of polylines (used by stroking, dashing and queries).
struct PolylineCollector: PathFlatteningSink {
    /// One flattened subpath.
    struct Polyline {
        var points: [CGPoint]
        var isClosed: Bool
    }
    var polylines: [Polyline] = []

    mutating func moveTo(_ p: CGPoint) { polylines.append(Polyline(points: [p], isClosed: false)) }
    mutating func lineTo(_ p: CGPoint) {
        if polylines.isEmpty { polylines.append(Polyline(points: [p], isClosed: false)); return }
        polylines[polylines.count - 1].points.append(p)
    }
    mutating func closeSubpath() {
        if !polylines.isEmpty { polylines[polylines.count - 1].isClosed = true }
    }
}

extension CGPath {
    /// The path flattened into polylines, in the path's own space.
    func polylines(tolerance: CGFloat, transform: CGAffineTransform = .identity) -> [PolylineCollector.Polyline] {
        var collector = PolylineCollector()
        flatten(transform: transform, tolerance: tolerance, into: &collector)
        return collector.polylines
    }
}
