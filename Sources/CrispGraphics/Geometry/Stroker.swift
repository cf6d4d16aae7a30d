import Foundation

// Stroking turns a path into closed outlines whose non-zero fill is the area swept by a pen of
// the line width moving along the path, with caps at open ends and joins at corners.
//
// Each subpath is first flattened (in user space) into a polyline held in reused buffers; the
// outline is then walked straight into the sink. For an open subpath it is
//     left offset forward, end cap, right offset backward, start cap
// and for a closed one two loops: left offset forward and right offset backward. At every
// vertex the side on the outside of the turn gets the join geometry (miter point, round arc,
// or nothing for a bevel), and the side on the inside goes back through the vertex itself (the
// "pivot"). As 1-chains, this outline is exactly the sum of the boundaries of simple convex
// pieces that all wind the same way — one quad per segment, one wedge per outer join, one per
// cap — so its winding number is non-zero exactly on their union: tight curves, reversals and
// self-overlaps need no special cases. The same argument lets the inner side take the
// intersection of its two offset lines instead of the pivot whenever the small "kite" between
// them lies inside both segment quads (segment lengths ≥ w/2 · max(sin θ, tan θ/2)): the kite
// is then covered twice, so cutting it keeps the fill, and it keeps overlapping pieces away
// from the outline's edge — an exact-area rasterizer integrates the winding number over a
// pixel, so an overlap touching the edge would over-darken it.
//
// Curves are flattened with Wang's bound for the centre line, and the pieces are connected by
// round joins (a bevel when the angle is below one arc step). The union of a polyline's
// round-joined stroke is its Minkowski sum with the pen disc, which is within the polyline's
// own error of the curve's stroke, so this bounds the offset error without estimating the
// curve's turning angle: the arc step 2·acos(1 − tol/(w/2)) ≈ 2·sqrt(2·tol/(w/2)) is applied
// where the turn happens. Caps and miter/bevel joins need the true end tangent, which a first
// chord misses by half its turn; those curve ends get extra steps at t = h/2, h/4, … until the
// chord is within tol/(w/2) of the tangent — unless the path goes on smoothly there (same
// tangent, a turn of at most one arc step, and a next segment long enough to cover the inner
// corner), which is decided when the next element arrives. "Same tangent" compares exact
// tangents (the previous curve's end, the next one's start), never a chord: half a chord's turn
// reads as a corner for a thick pen, and the steps it adds are too short for the inner side's
// intersection, so they get pivots, whose overlap on the inner edge an exact-area rasterizer
// over-covers. A closed subpath takes its first curve's start steps out again when it arrives
// there smoothly.
//
// Into a sink that takes curves (the rasterizer's exact-area curve edges), round caps and the
// round joins at corners are cubic arcs instead of steps (`emitArcCurves`), exact to 4·10⁻⁶ of
// the radius; the sides of a stroked curve are still the offsets of its flattened centre line,
// so they sit up to the flatness inside the true outline (docs/curves.md, "Strokes").
//
// Rejected: offsetting curves as curves (Skia, tiny-skia): exact tangents for free, but it
// needs curve–curve approximation, cusp detection and subdivision heuristics, and everything
// becomes line segments for the rasterizer anyway. Also rejected: computing the true outline
// by removing self-intersections — expensive, fragile, and needless for a non-zero fill.
// Sources: the pivot construction of Skia's SkStroke inner joins and AGG's vcgen_stroke; the
// winding-sum argument as in Nehab, "Converting stroked primitives to filled primitives"
// (SIGGRAPH 2020).

/// The line attributes of a stroke, as held in a context's graphics state.
struct StrokeStyle: Equatable {
    /// Line width in user units; ≤ 0 or non-finite strokes nothing (hairlines are the caller's).
    var width: CGFloat = 1
    var cap: CGLineCap = .butt
    var join: CGLineJoin = .miter
    /// Largest miter length / line width before a miter join becomes a bevel.
    var miterLimit: CGFloat = 10
    var dashPhase: CGFloat = 0
    /// Dash pattern; empty means solid (see `DashPattern` for invalid patterns).
    var dashLengths: [CGFloat] = []
}

/// The angle of one step of a round join or cap: the chord within `tolerance` of a circle of
/// radius `halfWidth`, but no less than a half turn in `maximumArcSegmentsPerHalfTurn` steps and
/// no more than a half turn. (A pen thinner than the tolerance once gave a step of a whole turn,
/// whose cosine, 1, no turn reaches: every join then took the full 1024 steps.)
func arcStep(tolerance: CGFloat, halfWidth: CGFloat) -> CGFloat {
    min(max(2 * acos(max(-1, 1 - tolerance / halfWidth)), CGFloat.pi / CGFloat(maximumArcSegmentsPerHalfTurn)), CGFloat.pi)
}

/// The most segments a half turn of a round join or cap is split into, whatever the width.
let maximumArcSegmentsPerHalfTurn = 1024

/// Coordinates beyond this magnitude make a subpath unusable for stroking and dashing (their
/// squared distances would overflow); such subpaths are skipped like non-finite ones.
let maximumStrokeCoordinate: CGFloat = 1e150

/// Strokes `path` in its own (user) space and sends the outline, mapped through `transform`,
/// to `sink` as closed subpaths to be filled with the non-zero rule.
///
/// - `tolerance`: largest distance, in user units, between the emitted outline and the ideal
///   one (the caller passes its device tolerance divided by the transform's maximum scale).
/// - A non-uniform `transform` therefore gives an elliptical pen, as in CoreGraphics.
/// - When `style.dashLengths` is a valid pattern, the path is dashed first (see `Dasher`);
///   with a `cullRect` (device space), dashes that cannot reach it are skipped.
/// - Subpaths with a non-finite or absurdly large point are skipped; a width ≤ 0 or non-finite
///   emits nothing.
func strokeOutline<S: PathFlatteningSink>(_ path: CGPath, style: StrokeStyle, tolerance: CGFloat,
                                   transform: CGAffineTransform, cullRect: CGRect? = nil, into sink: inout S) {
    let halfWidth = style.width / 2
    guard halfWidth > 0, halfWidth.isFinite, !path.verbs.isEmpty else { return }
    let tol = tolerance.isFinite && tolerance > 0 ? tolerance : 0.25
    let pattern = DashPattern(phase: style.dashPhase, lengths: style.dashLengths)
    // A stroke the rasterizer draws culls the dashes outside the clip (`cullRect`); an outline
    // kept as a path (`strokedOutline`, `replacePathWithStrokedPath`) has every dash's caps, up to
    // 2 × 1024 points each: its dashes are bounded by `maximumOutlinePoints` instead.
    let dashBudget = cullRect == nil
        ? min(CGFloat(maximumDashCount), CGFloat(maximumOutlinePoints) / outlinePointsPerDash(style, halfWidth, tol))
        : CGFloat(maximumDashCount)
    let dashes = pattern.flatMap { $0.estimatedDashCount(of: path) <= dashBudget ? $0 : nil }
    let verbs = path.verbs, points = path.points
    withUnsafeMutablePointer(to: &sink) { output in
        var builder = StrokeBuilder(output: output, halfWidth: halfWidth, style: style,
                                    tolerance: tol, transform: transform)
        let cull = cullRect.flatMap { DashCull(clip: $0, style: style, tolerance: tol, transform: transform) }
        var dasher = dashes.map { Dasher(pattern: $0, tolerance: tol, cull: cull) }
        var subpaths = SubpathIterator(verbs: verbs)
        while let sub = subpaths.next() {
            guard areStrokable(points[sub.points], transform: transform) else { continue }
            if dasher != nil {
                dasher!.dashSubpath(verbs: verbs[sub.verbs], points: points[sub.points], into: &builder)
            } else {
                feedSubpath(verbs: verbs[sub.verbs], points: points[sub.points], into: &builder)
            }
        }
        builder.finish()
    }
}

/// The most points a dashed outline kept as a path may take (about 200 MB of path): beyond it
/// the dash pattern is ignored and the path stroked solid, as beyond `maximumDashCount`.
let maximumOutlinePoints = 4_000_000

/// An upper bound of the points one dash adds to an outline: its two sides' ends and its two
/// caps (a round cap is a half turn of the stroker's arc steps, at most
/// `maximumArcSegmentsPerHalfTurn`).
func outlinePointsPerDash(_ style: StrokeStyle, _ halfWidth: CGFloat, _ tolerance: CGFloat) -> CGFloat {
    let cap: CGFloat
    switch style.cap {
    case .butt: cap = 0
    case .square: cap = 2
    case .round:
        cap = (CGFloat.pi / arcStep(tolerance: tolerance, halfWidth: halfWidth)).rounded(.up)
    }
    return 6 + 2 * cap
}

/// Whether every point is finite and reasonably sized, before and after `transform`.
func areStrokable(_ points: ArraySlice<CGPoint>, transform: CGAffineTransform) -> Bool {
    for p in points {
        guard abs(p.x) <= maximumStrokeCoordinate, abs(p.y) <= maximumStrokeCoordinate else { return false }
        let q = transform.apply(p.x, p.y)
        guard q.x.isFinite, q.y.isFinite else { return false }
    }
    return true
}

/// Splits a verb list into subpaths: each a move and the verbs up to the next move.
struct SubpathIterator: IteratorProtocol {
    let verbs: [CGPathElementType]
    var verbIndex = 0, pointIndex = 0

    init(verbs: [CGPathElementType]) { self.verbs = verbs }

    mutating func next() -> (verbs: Range<Int>, points: Range<Int>)? {
        guard verbIndex < verbs.count else { return nil }
        let v0 = verbIndex, p0 = pointIndex
        repeat {
            pointIndex += verbs[verbIndex].pointCount
            verbIndex += 1
        } while verbIndex < verbs.count && verbs[verbIndex] != .moveToPoint
        return (v0..<verbIndex, p0..<pointIndex)
    }
}

/// Sends one subpath's elements to `sink` unchanged.
func feedSubpath<T: PathElementSink>(verbs: ArraySlice<CGPathElementType>, points: ArraySlice<CGPoint>,
                                     into sink: inout T) {
    var i = points.startIndex
    for verb in verbs {
        switch verb {
        case .moveToPoint: sink.moveTo(points[i])
        case .addLineToPoint: sink.lineTo(points[i])
        case .addQuadCurveToPoint: sink.quadCurveTo(points[i], points[i + 1])
        case .addCurveToPoint: sink.curveTo(points[i], points[i + 1], points[i + 2])
        case .closeSubpath: sink.closeSubpath()
        }
        i += verb.pointCount
    }
}

/// Collects one subpath at a time as a polyline (user space) and, when it ends, writes its
/// stroke outline to the output sink.
struct StrokeBuilder<S: PathFlatteningSink>: PathElementSink {
    private let output: UnsafeMutablePointer<S>
    private let transform: CGAffineTransform
    private let halfWidth: CGFloat
    private let cap: CGLineCap
    private let join: CGLineJoin
    private let miterLimitSquared: CGFloat
    private let tolerance: CGFloat
    /// Cosine and sine of one arc step (the largest angle whose chord at radius w/2 stays
    /// within tolerance).
    private let arcCos: CGFloat, arcSin: CGFloat
    /// Segments shorter than this are dropped (their direction would be noise).
    private let minimumSegmentLength: CGFloat
    /// Whether curve ends need exact tangents (anything but round caps with round joins).
    private let refinesCurveEnds: Bool

    /// The current subpath's polyline: each vertex with the segment that ends at it (the first
    /// vertex's is the closing segment, once a closed subpath has one). One buffer, not one per
    /// field: a vertex costs one append.
    private var polyline: [PolylineVertex] = []
    private var hasSubpath = false, isDrawn = false, isClosed = false
    private var subpathStart = CGPoint.zero, current = CGPoint.zero
    /// Direction of a dropped tiny segment, used to orient a subpath that collapsed to a dot.
    private var degenerateDirection = CGPoint.zero
    /// Whether the next emitted point starts an output subpath.
    private var startsContour = true
    /// The last curve, when its end may need refining: decided once the next direction is known.
    private var pendingEnd: PendingCurveEnd?
    /// A subpath that starts with a curve gets steps towards its start point (vertices
    /// 1..<`startRefinementEnd`) before anyone knows whether it will be closed smoothly there;
    /// 0 when it got none. `subpathStartTangent` is that curve's start tangent.
    private var startRefinementEnd = 0
    private var subpathStartTangent = CGPoint.zero
    /// The exact end tangent of the last element when it was a curve (nil after a line).
    private var lastCurveEndTangent: CGPoint?

    private struct PolylineVertex {
        var point: CGPoint
        /// Unit direction and length of the segment from the previous vertex.
        var direction: CGPoint
        var length: CGFloat
        /// Whether the vertex lies inside a curve.
        var isSmooth: Bool
    }

    private struct PendingCurveEnd {
        var p0, p1, p2, p3: CGPoint
        var step: CGFloat
        var halvings: Int
        /// `polyline.count` right after the curve's end point was added.
        var vertexCount: Int
    }

    init(output: UnsafeMutablePointer<S>, halfWidth: CGFloat, style: StrokeStyle, tolerance: CGFloat,
         transform: CGAffineTransform) {
        self.output = output
        self.transform = transform
        self.halfWidth = halfWidth
        cap = style.cap
        join = style.join
        miterLimitSquared = style.miterLimit.isNaN ? 0 : style.miterLimit * style.miterLimit
        self.tolerance = tolerance
        let step = arcStep(tolerance: tolerance, halfWidth: halfWidth)
        arcCos = cos(step)
        arcSin = sin(step)
        minimumSegmentLength = tolerance * 1e-3
        refinesCurveEnds = !(style.cap == .round && style.join == .round)
    }

    // MARK: PathElementSink

    mutating func moveTo(_ p: CGPoint) {
        finish()
        polyline.removeAll(keepingCapacity: true)
        polyline.append(PolylineVertex(point: p, direction: .zero, length: 0, isSmooth: false))
        pendingEnd = nil
        startRefinementEnd = 0
        lastCurveEndTangent = nil
        hasSubpath = true
        isDrawn = false
        isClosed = false
        degenerateDirection = .zero
        subpathStart = p
        current = p
    }

    mutating func lineTo(_ p: CGPoint) {
        if !hasSubpath { moveTo(current) }
        isDrawn = true
        let next = CGPoint(x: p.x - current.x, y: p.y - current.y)
        resolvePendingEnd(next: next, nextLength: (next.x * next.x + next.y * next.y).squareRoot())
        addVertex(p, isSmooth: false)
        current = p
        lastCurveEndTangent = nil
    }

    mutating func quadCurveTo(_ c: CGPoint, _ e: CGPoint) {
        if !hasSubpath { moveTo(current) }
        isDrawn = true
        let p0 = current
        let ddx = p0.x - 2 * c.x + e.x, ddy = p0.y - 2 * c.y + e.y
        let n = CGPath.segmentCount(secondDifference: (ddx * ddx + ddy * ddy).squareRoot(), factor: 0.25,
                                    tolerance: tolerance)
        // Degree elevation: the same curve as a cubic.
        let c1 = CGPoint(x: p0.x + 2 / 3 * (c.x - p0.x), y: p0.y + 2 / 3 * (c.y - p0.y))
        let c2 = CGPoint(x: e.x + 2 / 3 * (c.x - e.x), y: e.y + 2 / 3 * (c.y - e.y))
        addCurve(p0, c1, c2, e, segments: n)
    }

    mutating func curveTo(_ c1: CGPoint, _ c2: CGPoint, _ e: CGPoint) {
        if !hasSubpath { moveTo(current) }
        isDrawn = true
        let p0 = current
        let d1x = p0.x - 2 * c1.x + c2.x, d1y = p0.y - 2 * c1.y + c2.y
        let d2x = c1.x - 2 * c2.x + e.x, d2y = c1.y - 2 * c2.y + e.y
        let m = max((d1x * d1x + d1y * d1y).squareRoot(), (d2x * d2x + d2y * d2y).squareRoot())
        addCurve(p0, c1, c2, e, segments: CGPath.segmentCount(secondDifference: m, factor: 0.75,
                                                               tolerance: tolerance))
    }

    mutating func closeSubpath() {
        guard hasSubpath else { return }
        isDrawn = true
        isClosed = true
        finish()
        current = subpathStart
    }

    mutating func addZeroLengthDash(at p: CGPoint, direction: CGPoint) {
        finish()
        emitDot(at: p, direction: direction)
        current = p
    }

    /// Writes out the pending subpath, if any.
    mutating func finish() {
        guard hasSubpath else { return }
        hasSubpath = false
        if isClosed {
            let closing = CGPoint(x: subpathStart.x - current.x, y: subpathStart.y - current.y)
            let isDegenerate = (closing.x * closing.x + closing.y * closing.y).squareRoot() <= minimumSegmentLength
            if isDegenerate, polyline.count > 1 {
                if startRefinementEnd > 1, polyline.count > startRefinementEnd + 1 {
                    // The path goes on into its first curve, whose start steps may go (below):
                    // the last curve's end is judged against that curve's tangent and its first
                    // regular chord, not against a step.
                    let q = polyline[startRefinementEnd].point
                    resolvePendingEnd(next: subpathStartTangent,
                                      nextLength: ((q.x - subpathStart.x) * (q.x - subpathStart.x) + (q.y - subpathStart.y) * (q.y - subpathStart.y)).squareRoot())
                } else {
                    resolvePendingEnd(next: polyline[1].direction, nextLength: polyline[1].length)
                }
            } else {
                resolvePendingEnd(next: closing, nextLength: (closing.x * closing.x + closing.y * closing.y).squareRoot())
            }
        } else {
            resolvePendingEnd(next: .zero, nextLength: 0)
        }
        if polyline.count > 1, isClosed {
            let first = polyline[0].point, last = polyline[polyline.count - 1].point
            let dx = first.x - last.x, dy = first.y - last.y
            let len = (dx * dx + dy * dy).squareRoot()
            if len > minimumSegmentLength {
                polyline[0].direction = CGPoint(x: dx / len, y: dy / len)
                polyline[0].length = len
                dropStartRefinementIfSmooth(arrivingAlong: polyline[0].direction)
            } else {
                // The last vertex is the start again: its incoming segment becomes the closing one.
                let end = polyline.removeLast()
                polyline[0].direction = end.direction
                polyline[0].length = end.length
                dropStartRefinementIfSmooth(arrivingAlong: lastCurveEndTangent ?? end.direction)
            }
        }
        if polyline.count == 1 {
            if isDrawn { emitDot(at: polyline[0].point, direction: degenerateDirection) }
        } else if isClosed {
            emitClosed()
        } else {
            emitOpen()
        }
    }

    // MARK: Building the polyline

    @inline(__always)
    private mutating func addVertex(_ p: CGPoint, isSmooth smooth: Bool) {
        let last = polyline[polyline.count - 1].point
        let dx = p.x - last.x, dy = p.y - last.y
        let len = (dx * dx + dy * dy).squareRoot()
        guard len > minimumSegmentLength else {
            if len > 0 { degenerateDirection = CGPoint(x: dx / len, y: dy / len) }
            if !smooth { polyline[polyline.count - 1].isSmooth = false }
            return
        }
        polyline.append(PolylineVertex(point: p, direction: CGPoint(x: dx / len, y: dy / len), length: len, isSmooth: smooth))
    }

    /// Makes room for `extra` more vertices at once, doubling at least: a builder lives for one
    /// stroke, and growing its buffer an element at a time cost more than filling it.
    private mutating func reserveVertices(_ extra: Int) {
        let needed = polyline.count + extra
        guard needed > polyline.capacity else { return }
        polyline.reserveCapacity(max(needed, 2 * polyline.capacity))
    }

    /// Flattens the cubic p0…p3 into `n` uniform steps, plus geometric steps towards ends whose
    /// first chord strays too far from the tangent (see the essay).
    private mutating func addCurve(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, segments n: Int) {
        // Power basis: B(t) = a t³ + b t² + c t + p0
        let cx = 3 * (p1.x - p0.x), cy = 3 * (p1.y - p0.y)
        let bx = 3 * (p0.x - 2 * p1.x + p2.x), by = 3 * (p0.y - 2 * p1.y + p2.y)
        let ax = p3.x - p0.x - cx - bx, ay = p3.y - p0.y - cy - by
        @inline(__always) func point(_ t: CGFloat) -> CGPoint {
            CGPoint(x: p0.x + t * (cx + t * (bx + t * ax)), y: p0.y + t * (cy + t * (by + t * ay)))
        }
        let h = 1 / CGFloat(n)
        let startTangent = CGPath.startTangent(p0, p1, p2, p3)
        let first = point(h), last = point(1 - h)
        let chord = CGPoint(x: first.x - p0.x, y: first.y - p0.y)
        resolvePendingEnd(next: startTangent, nextLength: (chord.x * chord.x + chord.y * chord.y).squareRoot())
        var startSteps = 0, endSteps = 0
        let startsSubpath = polyline.count == 1
        if refinesCurveEnds {
            // Arriving from a curve, its exact end tangent says whether the path turns here (the
            // last chord is off the tangent by half its turn, which reads as a corner for a
            // thick pen and put steps, and pivots, on every junction of a circle's arcs).
            if polyline.count == 1
                || !isTangentContinuous(lastCurveEndTangent ?? polyline[polyline.count - 1].direction, startTangent)
                || !isWithinOneArcStep(polyline[polyline.count - 1].direction, chord) {
                startSteps = refinementSteps(tangent: startTangent, chord: chord)
            }
            endSteps = refinementSteps(tangent: CGPath.startTangent(p3, p2, p1, p0),
                                       chord: CGPoint(x: last.x - p3.x, y: last.y - p3.y))
        }
        reserveVertices(n + startSteps)
        var j = startSteps
        while j > 0 {
            addVertex(point(h * CGFloat(sign: .plus, exponent: -j, significand: 1)), isSmooth: true)
            j -= 1
        }
        if startsSubpath && startSteps > 0 {
            startRefinementEnd = polyline.count
            subpathStartTangent = startTangent
        }
        for k in 1..<max(n, 1) { addVertex(point(CGFloat(k) * h), isSmooth: true) }
        addVertex(p3, isSmooth: false)
        current = p3
        lastCurveEndTangent = negated(CGPath.startTangent(p3, p2, p1, p0))
        if endSteps > 0 {
            pendingEnd = PendingCurveEnd(p0: p0, p1: p1, p2: p2, p3: p3, step: h, halvings: endSteps,
                                         vertexCount: polyline.count)
        }
    }

    /// Refines the end of the previous curve unless the path continues along its tangent with a
    /// segment long enough to cover the inner corner of the curve's last chord (`next` is the
    /// next direction and `nextLength` its first segment's length; zero at an open end, where a
    /// cap follows).
    private mutating func resolvePendingEnd(next: CGPoint, nextLength: CGFloat) {
        guard let end = pendingEnd else { return }
        pendingEnd = nil
        let tangent = CGPoint(x: end.p3.x - end.p2.x, y: end.p3.y - end.p2.y)
        guard polyline.count == end.vertexCount, polyline.count > 1 else { return }
        let endTangent = tangent == .zero ? negated(CGPath.startTangent(end.p3, end.p2, end.p1, end.p0)) : tangent
        let lastDirection = polyline[polyline.count - 1].direction
        if isTangentContinuous(endTangent, next), isWithinOneArcStep(lastDirection, next),
           nextLength * (next.x * next.x + next.y * next.y).squareRoot()
               >= halfWidth * abs(lastDirection.x * next.y - lastDirection.y * next.x) {
            return
        }
        // Take the end point off, add the steps towards it, and put it back.
        polyline.removeLast()
        let (p0, p1, p2, p3) = (end.p0, end.p1, end.p2, end.p3)
        for j in 1...end.halvings {
            let t = 1 - end.step * CGFloat(sign: .plus, exponent: -j, significand: 1)
            addVertex(CGPath.cubicPoint(p0, p1, p2, p3, t), isSmooth: true)
        }
        addVertex(p3, isSmooth: false)
    }

    /// A closed subpath that ends where it started along its first curve's tangent needs no steps
    /// towards that curve's start (the same test as `resolvePendingEnd`): they are taken out
    /// again. Besides costing vertices, their tiny segments are too short for the inner side's
    /// intersection, and the pivots through the centre line they get instead put overlapping
    /// pieces on the inner edge, which an exact-area rasterizer over-covers (a ring of half-width
    /// 8.7 px round a circle of r 10.35 px had its 1.6-px hole 94 levels too dark on one side).
    /// `arrival` is the direction the path arrives at its start in: the closing line's, or the
    /// last curve's exact end tangent.
    private mutating func dropStartRefinementIfSmooth(arrivingAlong arrival: CGPoint) {
        let end = startRefinementEnd
        startRefinementEnd = 0
        guard end > 1, polyline.count > end + 1 else { return }
        let closing = polyline[0].direction
        let start = polyline[0].point, next = polyline[end].point
        let dx = next.x - start.x, dy = next.y - start.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > minimumSegmentLength else { return }
        let chord = CGPoint(x: dx / length, y: dy / length)
        guard isTangentContinuous(arrival, subpathStartTangent), isWithinOneArcStep(closing, chord),
              length >= halfWidth * abs(closing.x * chord.y - closing.y * chord.x) else { return }
        polyline.removeSubrange(1..<end)
        polyline[1].direction = chord
        polyline[1].length = length
    }

    /// Whether the angle between unit direction `a` and direction `b` is at most one arc step,
    /// so that a bevel or miter between them is within tolerance of a round join.
    private func isWithinOneArcStep(_ a: CGPoint, _ b: CGPoint) -> Bool {
        let lb = (b.x * b.x + b.y * b.y).squareRoot()
        return lb > 0 && a.x * b.x + a.y * b.y >= arcCos * lb
    }

    /// Whether directions `a` and `b` agree to within tolerance at the pen's radius
    /// (w/2 · sin θ ≤ tol): the path has no corner there, so the curve end needs no exact tangent.
    private func isTangentContinuous(_ a: CGPoint, _ b: CGPoint) -> Bool {
        let la = (a.x * a.x + a.y * a.y).squareRoot(), lb = (b.x * b.x + b.y * b.y).squareRoot()
        guard la > 0, lb > 0 else { return false }
        let dot = a.x * b.x + a.y * b.y
        return dot > 0 && halfWidth * abs(a.x * b.y - a.y * b.x) <= tolerance * la * lb
    }

    /// How many halvings of the end step bring the chord's sideways error w/2 · sin δ below
    /// tolerance (each halving roughly halves δ).
    private func refinementSteps(tangent t: CGPoint, chord c: CGPoint) -> Int {
        let tl = (t.x * t.x + t.y * t.y).squareRoot(), cl = (c.x * c.x + c.y * c.y).squareRoot()
        guard tl > 0, cl > 0 else { return 0 }
        let cosine = (t.x * c.x + t.y * c.y) / (tl * cl)
        let sine = abs(t.x * c.y - t.y * c.x) / (tl * cl)
        let error = halfWidth * (cosine < 0 ? 1 : sine)
        guard error > tolerance else { return 0 }
        // Compare before converting: an infinite error (an absurd line width) must not reach Int().
        let steps = log2(error / tolerance).rounded(.up)
        return steps < 24 ? Int(steps) : 24
    }

    // MARK: Emitting the outline

    @inline(__always)
    private mutating func put(_ x: CGFloat, _ y: CGFloat) {
        let q = transform.apply(x, y)
        if startsContour {
            output.pointee.moveTo(q)
            startsContour = false
        } else {
            output.pointee.lineTo(q)
        }
    }

    /// `p` offset by the left normal of unit direction `d`, times `scale` half-widths.
    @inline(__always)
    private mutating func putOffset(_ p: CGPoint, _ d: CGPoint, _ scale: CGFloat = 1) {
        let s = halfWidth * scale
        put(p.x - d.y * s, p.y + d.x * s)
    }

    @inline(__always)
    private mutating func closeOutline() {
        output.pointee.closeSubpath()
        startsContour = true
    }

    private mutating func emitOpen() {
        let polyline = self.polyline
        polyline.withUnsafeBufferPointer { v in
            let n = v.count
            let d0 = v[1].direction, dn = v[n - 1].direction
            putOffset(v[0].point, d0)
            var i = 1
            while i < n - 1 {
                emitJoin(at: v[i].point, v[i].direction, v[i + 1].direction, lengthIn: v[i].length,
                         lengthOut: v[i + 1].length, isSmooth: v[i].isSmooth, isBackward: false)
                i += 1
            }
            putOffset(v[n - 1].point, dn)
            emitCap(at: v[n - 1].point, direction: dn)
            putOffset(v[n - 1].point, dn, -1)
            i = n - 2
            while i > 0 {
                emitJoin(at: v[i].point, negated(v[i + 1].direction), negated(v[i].direction), lengthIn: v[i + 1].length,
                         lengthOut: v[i].length, isSmooth: v[i].isSmooth, isBackward: true)
                i -= 1
            }
            putOffset(v[0].point, d0, -1)
            emitCap(at: v[0].point, direction: negated(d0))
            closeOutline()
        }
    }

    /// Vertex i's outgoing segment is the next vertex's incoming one; the last vertex's is the
    /// closing segment, kept at vertex 0.
    private mutating func emitClosed() {
        let polyline = self.polyline
        polyline.withUnsafeBufferPointer { v in
            let n = v.count
            var i = 0
            while i < n {
                let next = i + 1 < n ? i + 1 : 0
                emitJoin(at: v[i].point, v[i].direction, v[next].direction, lengthIn: v[i].length,
                         lengthOut: v[next].length, isSmooth: v[i].isSmooth, isBackward: false)
                i += 1
            }
            closeOutline()
            emitJoin(at: v[0].point, negated(v[1].direction), negated(v[0].direction), lengthIn: v[1].length,
                     lengthOut: v[0].length, isSmooth: v[0].isSmooth, isBackward: true)
            i = n - 1
            while i > 0 {
                let next = i + 1 < n ? i + 1 : 0
                emitJoin(at: v[i].point, negated(v[next].direction), negated(v[i].direction), lengthIn: v[next].length,
                         lengthOut: v[i].length, isSmooth: v[i].isSmooth, isBackward: true)
                i -= 1
            }
            closeOutline()
        }
    }

    /// The left offset side's points at vertex `p`, travelling in unit direction `a` then `b`.
    ///
    /// A reversal (b = −a) has no side: it counts as a left turn going forward and a right
    /// turn going backward, so exactly one side gets the join.
    @inline(__always)
    private mutating func emitJoin(at p: CGPoint, _ a: CGPoint, _ b: CGPoint, lengthIn: CGFloat,
                                   lengthOut: CGFloat, isSmooth smooth: Bool, isBackward: Bool) {
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        let hw = halfWidth
        var isInner = cross > 0
        if cross == 0 {
            if dot > 0 { putOffset(p, a); return }
            isInner = !isBackward
        }
        let nax = -a.y * hw, nay = a.x * hw, nbx = -b.y * hw, nby = b.x * hw
        let opposite = 1 + dot
        if isInner {
            // The kite between the two offset lines lies in both segment quads when both
            // segments reach past it: then their intersection replaces the pivot.
            let reach = hw * (dot >= 0 ? cross : cross / opposite)
            if opposite > 1e-12, min(lengthIn, lengthOut) >= reach {
                put(p.x + (nax + nbx) / opposite, p.y + (nay + nby) / opposite)
            } else {
                put(p.x + nax, p.y + nay)
                put(p.x, p.y)
                put(p.x + nbx, p.y + nby)
            }
            return
        }
        put(p.x + nax, p.y + nay)
        if !smooth && join == .round && output.pointee.takesCurves {
            emitArcCurves(at: p, from: CGPoint(x: -a.y, y: a.x), to: CGPoint(x: -b.y, y: b.x))
        } else if smooth || join == .round {
            emitArc(at: p, from: CGPoint(x: -a.y, y: a.x), to: CGPoint(x: -b.y, y: b.x))
        } else if join == .miter, opposite * miterLimitSquared >= 2 {
            // Miter length / width = 1 / sin(φ/2) = 1 / cos(θ/2), θ the turn; cos²(θ/2) = (1 + dot)/2.
            put(p.x + (nax + nbx) / opposite, p.y + (nay + nby) / opposite)
        }
        put(p.x + nbx, p.y + nby)
    }

    /// Points strictly between `p + u·w/2` and `p + v·w/2` on the clockwise arc between the
    /// unit vectors `u` and `v` (at most a half turn apart).
    @inline(__always)
    private mutating func emitArc(at p: CGPoint, from u: CGPoint, to v: CGPoint) {
        var x = u.x, y = u.y
        var steps = 0
        while x * v.x + y * v.y < arcCos, steps < maximumArcSegmentsPerHalfTurn {
            (x, y) = (x * arcCos + y * arcSin, y * arcCos - x * arcSin)
            put(p.x + x * halfWidth, p.y + y * halfWidth)
            steps += 1
        }
    }

    /// The same arc as `emitArc` (clockwise from `u` to `v`, at most a half turn), for a sink that
    /// takes curves (the rasterizer's exact-area curve edges): cubics of at most 45° each,
    /// control points at k = 4/3·tan(φ/4) of the radius along the tangents (within 4.2·10⁻⁶ of
    /// the radius of the true circle), ending on `p + v·w/2`; mapped through the transform
    /// (exact for cubics).
    private mutating func emitArcCurves(at p: CGPoint, from u: CGPoint, to v: CGPoint) {
        var angle = atan2(-(u.x * v.y - u.y * v.x), u.x * v.x + u.y * v.y)
        // A half turn may come out as −π from rounding; a tiny negative turn is no arc.
        if angle < -CGFloat.pi / 2 { angle += 2 * CGFloat.pi }
        guard angle > 1e-9, angle.isFinite else { return }
        let n = max(1, Int((angle / (CGFloat.pi / 4)).rounded(.up)))
        let phi = angle / CGFloat(n)
        let c = cos(phi), s = sin(phi)
        let k = 4 / 3 * tan(phi / 4) * halfWidth
        let r = halfWidth
        var x = u.x, y = u.y
        for _ in 0..<n {
            let nx = x * c + y * s, ny = y * c - x * s
            // Tangent in the direction of travel: (y, −x) at (x, y).
            let c1 = transform.apply(p.x + x * r + y * k, p.y + y * r - x * k)
            let c2 = transform.apply(p.x + nx * r - ny * k, p.y + ny * r + nx * k)
            let e = transform.apply(p.x + nx * r, p.y + ny * r)
            output.pointee.curveTo(c1, c2, e)
            x = nx; y = ny
        }
    }

    /// The cap's points strictly between `p + n` and `p − n`, n the left normal of `d`, the
    /// direction of travel into the end.
    private mutating func emitCap(at p: CGPoint, direction d: CGPoint) {
        switch cap {
        case .butt:
            break
        case .square:
            let ex = d.x * halfWidth, ey = d.y * halfWidth
            put(p.x - d.y * halfWidth + ex, p.y + d.x * halfWidth + ey)
            put(p.x + d.y * halfWidth + ex, p.y - d.x * halfWidth + ey)
        case .round:
            if output.pointee.takesCurves {
                emitArcCurves(at: p, from: CGPoint(x: -d.y, y: d.x), to: CGPoint(x: d.y, y: -d.x))
            } else {
                emitArc(at: p, from: CGPoint(x: -d.y, y: d.x), to: CGPoint(x: d.y, y: -d.x))
            }
        }
    }

    /// A zero-length subpath: a disc for round caps, a square along `direction` (or the axes
    /// when it is zero) for square caps, nothing for butt caps.
    private mutating func emitDot(at p: CGPoint, direction: CGPoint) {
        guard cap != .butt else { return }
        let len = (direction.x * direction.x + direction.y * direction.y).squareRoot()
        let d = len > 0 && len.isFinite ? CGPoint(x: direction.x / len, y: direction.y / len) : CGPoint(x: 1, y: 0)
        putOffset(p, d)
        emitCap(at: p, direction: d)
        putOffset(p, d, -1)
        emitCap(at: p, direction: negated(d))
        closeOutline()
    }
}

@inline(__always)
func negated(_ p: CGPoint) -> CGPoint { CGPoint(x: -p.x, y: -p.y) }

extension CGPath {
    /// The direction in which a cubic leaves `p0`: the first non-zero of p1 − p0, p2 − p0, p3 − p0.
    static func startTangent(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) -> CGPoint {
        let q = p1 != p0 ? p1 : p2 != p0 ? p2 : p3
        return CGPoint(x: q.x - p0.x, y: q.y - p0.y)
    }
}
