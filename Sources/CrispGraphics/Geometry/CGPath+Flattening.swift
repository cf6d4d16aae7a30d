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
    var takesCurves: Bool { get }
    mutating func curveTo(_ c1: CGPoint, _ c2: CGPoint, _ e: CGPoint)
}

extension PathFlatteningSink {
    /// Whether the sink takes curves whole (`curveTo`) rather than flattened: the rasterizer's
    /// exact-area prototype (Rasterizer+Curves.swift).
    var takesCurves: Bool { false }
    /// A cubic from the current point (only when `takesCurves`).
    mutating func curveTo(_ c1: CGPoint, _ c2: CGPoint, _ e: CGPoint) {}
}

/// The most segments one curve is split into, whatever its size: bounds time and memory for
/// absurd coordinates.
let maximumSegmentsPerCurve = 2048

extension CGPath {
    /// Emits the path transformed by `transform`, with curves flattened to `tolerance` in the
    /// transformed space. Subpaths containing a non-finite point (before or after the transform)
    /// are skipped whole, so that a stray NaN never leaves an unclosed outline behind.
    func flatten<S: PathFlatteningSink>(transform t: CGAffineTransform, tolerance: CGFloat,
                                        cullRect: CGRect? = nil, into sink: inout S) {
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
                for vi in subpathVerbStart..<subpathEndVerb {
                    switch verbs[vi] {
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
                            sink.lineTo(e)
                        } else if sink.takesCurves {
                            sink.curveTo(CGPoint(x: last.x + 2 * (c.x - last.x) / 3, y: last.y + 2 * (c.y - last.y) / 3),
                                         CGPoint(x: e.x + 2 * (c.x - e.x) / 3, y: e.y + 2 * (c.y - e.y) / 3), e)
                        } else {
                            CGPath.flattenQuad(last, c, e, tolerance: tol, into: &sink)
                        }
                        last = e
                        pi += 2
                    case .addCurveToPoint:
                        let c1 = t.apply(pts[pi].x, pts[pi].y), c2 = t.apply(pts[pi + 1].x, pts[pi + 1].y)
                        let e = t.apply(pts[pi + 2].x, pts[pi + 2].y)
                        if useCull, !CGPath.controlBox(last, c1, c2, e).intersects(cull) {
                            sink.lineTo(e)
                        } else if sink.takesCurves {
                            sink.curveTo(c1, c2, e)
                        } else {
                            CGPath.flattenCubic(last, c1, c2, e, tolerance: tol, into: &sink)
                        }
                        last = e
                        pi += 3
                    case .closeSubpath:
                        sink.closeSubpath()
                    }
                }
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
}

/// Collects a flattened path as arrays of polylines (used by stroking, dashing and queries).
@_spi(Testing) public struct PolylineCollector: PathFlatteningSink {
    /// One flattened subpath.
    @_spi(Testing) public struct Polyline {
        /// The subpath's points.
        @_spi(Testing) public internal(set) var points: [CGPoint]
        /// Whether the subpath was closed.
        @_spi(Testing) public internal(set) var isClosed: Bool
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
    @_spi(Testing) public func polylines(tolerance: CGFloat, transform: CGAffineTransform = .identity) -> [PolylineCollector.Polyline] {
        var collector = PolylineCollector()
        flatten(transform: transform, tolerance: tolerance, into: &collector)
        return collector.polylines
    }
}
