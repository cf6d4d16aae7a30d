import Foundation

// Dashing cuts each subpath into the "on" stretches of a repeating pattern of lengths measured
// along the path. Lines are cut by linear interpolation. Curves are kept as curves: while a
// subpath is measured, each curve is flattened (Wang's bound, as for filling) into a table of
// (t, cumulative chord length); a dash boundary's distance is turned into t by binary search
// and linear interpolation in that table, and the curve is split there with de Casteljau. The
// dashes go to a `PathElementSink`: the stroker, or a path builder for `copy(dashingWithPhase:)`.
//
// Closed subpaths follow Skia and tiny-skia (SkDashPath::InternalFilter, tiny-skia's dash.rs):
// the pattern also runs along the closing segment, and when the pattern is "on" at the start,
// that first dash is held back and emitted last, continuing the final dash without a break if
// that one runs up to the end — so the dash that straddles the start point is one piece with a
// proper join, not two butted caps. Unlike them, a closed subpath that one dash covers whole is
// emitted closed (so its start corner keeps its join).
//
// The work is bounded like Skia's: if a path would produce more than `maximumDashCount` dashes
// (estimated from its control-polygon length, an upper bound of its arc length), the pattern is
// ignored and the path is drawn solid. That bound holds because curves are measured relative to
// their start (the length of a curve far from the origin must not pick up its coordinates'
// rounding); each subpath's measured length is checked against it as well, so the dash loop is
// bounded by construction.
//
// When stroking for the rasterizer, a dash whose stroke cannot reach the clip box is skipped
// (`DashCull`): its sub-curve's control hull, mapped to device space, grown by how far the pen,
// joins and caps reach, misses the box. Like Skia's culling of dashed lines, this makes a long
// dashed path seen through a small window cost what the visible dashes cost; the pattern is
// still walked along the whole path (cheap arithmetic, bounded as above), so which dashes are
// drawn does not change, and the pixels do not either (a closed outline adds no winding outside
// its hull).
//
// Rejected: dashing the flattened polyline. It is simpler, but the dash ends on curves would
// then lie on chords, so caps would point along a chord instead of the tangent, and
// `copy(dashingWithPhase:)` would lose its curves.

/// Receives path elements in order (what the dasher produces, and what the stroker consumes).
protocol PathElementSink {
    mutating func moveTo(_ p: CGPoint)
    mutating func lineTo(_ p: CGPoint)
    mutating func quadCurveTo(_ control: CGPoint, _ end: CGPoint)
    mutating func curveTo(_ control1: CGPoint, _ control2: CGPoint, _ end: CGPoint)
    mutating func closeSubpath()
    /// A dash of zero length at `p`; `direction` is the path's direction there (zero if unknown).
    mutating func addZeroLengthDash(at p: CGPoint, direction: CGPoint)
}

/// The most dashes one path may produce before its dash pattern is ignored (as in Skia).
let maximumDashCount = 1_000_000

/// Which dashes a stroke can show: those whose device-space footprint can reach `rect`.
struct DashCull {
    /// The clip box grown by the stroke's reach (pen, miters, square caps, flattening), in
    /// device space.
    let rect: CGRect
    /// User space to device space.
    let transform: CGAffineTransform

    /// A cull for a stroke of `style` mapped by `transform`, drawn into `clip` (device space);
    /// nil when the reach is not finite (nothing can be culled).
    init?(clip: CGRect, style: StrokeStyle, tolerance: CGFloat, transform: CGAffineTransform) {
        // Miter joins reach miterLimit × w/2 from the joint; square caps w/2 · √2 (< 1.5).
        let factor = style.join == .miter ? max(style.miterLimit, 1.5) : 1.5
        let reach = (style.width / 2 * factor + tolerance) * transform.maximumScale + 1
        guard reach.isFinite, clip.isFiniteRect else { return nil }
        rect = clip.insetBy(dx: -reach, dy: -reach)
        self.transform = transform
    }

    /// Whether the user-space box `lo`–`hi` maps to a box that misses `rect`.
    func misses(_ lo: CGPoint, _ hi: CGPoint) -> Bool {
        // An affine map's extent over a box: each output coordinate is extreme at a corner, and
        // the corner is picked per term by the coefficient's sign.
        let t = transform
        let minX = t.tx + min(t.a * lo.x, t.a * hi.x) + min(t.c * lo.y, t.c * hi.y)
        let maxX = t.tx + max(t.a * lo.x, t.a * hi.x) + max(t.c * lo.y, t.c * hi.y)
        let minY = t.ty + min(t.b * lo.x, t.b * hi.x) + min(t.d * lo.y, t.d * hi.y)
        let maxY = t.ty + max(t.b * lo.x, t.b * hi.x) + max(t.d * lo.y, t.d * hi.y)
        return maxX < rect.minX || minX > rect.maxX || maxY < rect.minY || minY > rect.maxY
    }
}

/// A validated dash pattern with its phase resolved.
struct DashPattern {
    /// Alternating on and off lengths; always an even count.
    let lengths: [CGFloat]
    /// Sum of `lengths`, positive and finite.
    let period: CGFloat
    /// Index in `lengths` of the interval the pattern starts in, and how much of it is left.
    let firstIndex: Int
    let firstLength: CGFloat

    /// nil when the pattern does not dash: empty, any length negative or non-finite, all
    /// lengths zero, or a non-finite phase. An odd count is repeated once to make it even.
    init?(phase: CGFloat, lengths source: [CGFloat]) {
        guard !source.isEmpty, phase.isFinite else { return nil }
        var period: CGFloat = 0
        for length in source {
            guard length >= 0, length.isFinite else { return nil }
            period += length
        }
        guard period > 0, period.isFinite else { return nil }
        let lengths = source.count % 2 == 0 ? source : source + source
        if lengths.count != source.count { period *= 2 }
        var offset = fmod(phase, period)
        if offset < 0 { offset += period }
        if offset >= period { offset = 0 }
        var index = 0, remaining = lengths[0]
        for (i, length) in lengths.enumerated() {
            if offset > length || (offset == length && length != 0) {
                offset -= length
            } else {
                index = i
                remaining = length - offset
                break
            }
        }
        self.lengths = lengths
        self.period = period
        firstIndex = index
        firstLength = remaining
    }

    /// An upper bound of the number of dashes `path` would produce.
    func estimatedDashCount(of path: CGPath) -> CGFloat {
        var polygonLength: CGFloat = 0
        var subpaths = SubpathIterator(verbs: path.verbs)
        while let sub = subpaths.next() {
            let points = path.points[sub.points]
            guard areStrokable(points, transform: .identity), var last = points.first else { continue }
            for p in points.dropFirst() {
                polygonLength += hypot(p.x - last.x, p.y - last.y)
                last = p
            }
            polygonLength += hypot(points[points.startIndex].x - last.x, points[points.startIndex].y - last.y)
        }
        return polygonLength / period * CGFloat(lengths.count / 2)
    }
}

/// Dashes subpaths one at a time, reusing its measuring buffers.
struct Dasher {
    let pattern: DashPattern
    /// Flattening tolerance for measuring curves, in path units.
    let tolerance: CGFloat
    /// Dashes that cannot show are skipped (nil: every dash is emitted).
    let cull: DashCull?

    /// One measured, non-degenerate line or curve of the current subpath.
    private struct Piece {
        /// 1 line (p0–p1), 2 quadratic (p0, p1, p2), 3 cubic (p0…p3).
        var degree: Int
        var p0, p1, p2, p3: CGPoint
        /// Distance along the subpath where the piece starts, and its length.
        var start: CGFloat
        var length: CGFloat
        /// Range in `table` of a curve's (t, length from the piece start) samples.
        var tableStart: Int, tableEnd: Int
    }
    private var pieces: [Piece] = []
    private var table: [CGPoint] = []
    /// The piece the next dash starts in (dashes arrive in increasing distance).
    private var cursor = 0

    init(pattern: DashPattern, tolerance: CGFloat, cull: DashCull? = nil) {
        self.pattern = pattern
        self.tolerance = max(tolerance, 1e-6)
        self.cull = cull
    }

    /// Dashes one subpath (a move and the verbs up to the next move) into `sink`.
    mutating func dashSubpath<T: PathElementSink>(verbs: ArraySlice<CGPathElementType>, points: ArraySlice<CGPoint>,
                                                  into sink: inout T) {
        let (isClosed, isDrawn, start) = measure(verbs: verbs, points: points)
        let lengths = pattern.lengths
        var index = pattern.firstIndex
        var remaining = pattern.firstLength
        guard let lastPiece = pieces.last else {
            if isDrawn, index % 2 == 0 { sink.addZeroLengthDash(at: start, direction: .zero) }
            return
        }
        let total = lastPiece.start + lastPiece.length
        // The path's estimate bounds the dash count already; checking the measured length as
        // well bounds the loop below by construction (it runs twice per dash).
        guard total / pattern.period * CGFloat(lengths.count / 2) <= CGFloat(maximumDashCount) else {
            feedSubpath(verbs: verbs, points: points, into: &sink)
            return
        }
        cursor = 0
        if isClosed, index % 2 == 0, remaining >= total {
            emit(from: 0, to: total, startsWithMove: true, into: &sink)
            sink.closeSubpath()
            return
        }
        let holdsFirstDash = isClosed && index % 2 == 0 && remaining > 0
        var skipsDash = holdsFirstDash
        var endsOn = false
        var distance: CGFloat = 0
        while distance < total {
            endsOn = false
            if index % 2 == 0, !skipsDash {
                if remaining == 0 {
                    emitDot(at: distance, into: &sink)
                } else if isShown(from: distance, to: min(distance + remaining, total)) {
                    emit(from: distance, to: min(distance + remaining, total), startsWithMove: true, into: &sink)
                    endsOn = true
                }
            }
            skipsDash = false
            distance += remaining
            index += 1
            if index == lengths.count { index = 0 }
            remaining = lengths[index]
        }
        if holdsFirstDash {
            cursor = 0
            // Culled, it leaves a cap where it would have joined the last dash: at the start
            // point, which is then out of reach of the clip too.
            if isShown(from: 0, to: pattern.firstLength) {
                emit(from: 0, to: pattern.firstLength, startsWithMove: !endsOn, into: &sink)
            }
        }
    }

    /// Fills `pieces` and `table` for one subpath. Returns whether it is closed, whether it
    /// draws anything (a line, curve or close after the move), and its start point.
    private mutating func measure(verbs: ArraySlice<CGPathElementType>,
                                  points: ArraySlice<CGPoint>) -> (Bool, Bool, CGPoint) {
        pieces.removeAll(keepingCapacity: true)
        table.removeAll(keepingCapacity: true)
        var i = points.startIndex
        var start = CGPoint.zero, last = CGPoint.zero
        var isClosed = false, isDrawn = false
        var distance: CGFloat = 0
        for verb in verbs {
            switch verb {
            case .moveToPoint:
                start = points[i]; last = start
            case .addLineToPoint:
                isDrawn = true
                addLine(last, points[i], distance: &distance)
                last = points[i]
            case .addQuadCurveToPoint:
                isDrawn = true
                addCurve(degree: 2, last, points[i], points[i + 1], .zero, distance: &distance)
                last = points[i + 1]
            case .addCurveToPoint:
                isDrawn = true
                addCurve(degree: 3, last, points[i], points[i + 1], points[i + 2], distance: &distance)
                last = points[i + 2]
            case .closeSubpath:
                isDrawn = true
                isClosed = true
                addLine(last, start, distance: &distance)
                last = start
            }
            i += verb.pointCount
        }
        return (isClosed, isDrawn, start)
    }

    private mutating func addLine(_ a: CGPoint, _ b: CGPoint, distance: inout CGFloat) {
        let length = hypot(b.x - a.x, b.y - a.y)
        guard length > 0 else { return }
        pieces.append(Piece(degree: 1, p0: a, p1: b, p2: .zero, p3: .zero, start: distance, length: length,
                            tableStart: 0, tableEnd: 0))
        distance += length
    }

    private mutating func addCurve(degree: Int, _ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
                                   distance: inout CGFloat) {
        // Measured relative to p0 (B(t) − p0 = c t + b t² + a t³ from the control points' offsets):
        // evaluated in absolute coordinates, each sample would be off by an ulp of the
        // coordinates, not of the curve, so a small curve far from the origin measured as long as
        // those ulps add up (an arc of radius 92 at y = 2.7e57 measured ≈ 1.4e43, far beyond the
        // control-polygon bound the dash count was checked against: the dash loop never ended).
        let d1 = CGPoint(x: p1.x - p0.x, y: p1.y - p0.y), d2 = CGPoint(x: p2.x - p0.x, y: p2.y - p0.y)
        // Second differences of the control points: p0 − 2 p1 + p2, and p1 − 2 p2 + p3.
        let s1 = CGPoint(x: d2.x - 2 * d1.x, y: d2.y - 2 * d1.y)
        let n: Int
        let a: CGPoint, b: CGPoint, c: CGPoint
        if degree == 2 {
            (a, b, c) = (.zero, s1, CGPoint(x: 2 * d1.x, y: 2 * d1.y))
            n = CGPath.segmentCount(secondDifference: hypot(s1.x, s1.y), factor: 0.25, tolerance: tolerance)
        } else {
            let d3 = CGPoint(x: p3.x - p0.x, y: p3.y - p0.y)
            let s2 = CGPoint(x: d3.x - 2 * d2.x + d1.x, y: d3.y - 2 * d2.y + d1.y)
            a = CGPoint(x: d3.x + 3 * (d1.x - d2.x), y: d3.y + 3 * (d1.y - d2.y))
            b = CGPoint(x: 3 * s1.x, y: 3 * s1.y)
            c = CGPoint(x: 3 * d1.x, y: 3 * d1.y)
            n = CGPath.segmentCount(secondDifference: max(hypot(s1.x, s1.y), hypot(s2.x, s2.y)), factor: 0.75,
                                    tolerance: tolerance)
        }
        let tableStart = table.count
        table.append(.zero)
        var previous = CGPoint.zero, length: CGFloat = 0
        for k in 1...n {
            let t = CGFloat(k) / CGFloat(n)
            let q = CGPoint(x: t * (c.x + t * (b.x + t * a.x)), y: t * (c.y + t * (b.y + t * a.y)))
            length += hypot(q.x - previous.x, q.y - previous.y)
            table.append(CGPoint(x: t, y: length))
            previous = q
        }
        guard length > 0 else { table.removeSubrange(tableStart...); return }
        pieces.append(Piece(degree: degree, p0: p0, p1: p1, p2: p2, p3: p3, start: distance, length: length,
                            tableStart: tableStart, tableEnd: table.count))
        distance += length
    }

    /// Whether the dash between two distances can reach the clip (always, without a cull).
    private mutating func isShown(from a: CGFloat, to b: CGFloat) -> Bool {
        guard let cull else { return true }
        var k = cursor
        while k < pieces.count - 1, pieces[k].start + pieces[k].length <= a { k += 1 }
        cursor = k
        var lo = CGPoint(x: CGFloat.infinity, y: .infinity), hi = CGPoint(x: -CGFloat.infinity, y: -.infinity)
        while true {
            let piece = pieces[k]
            let u0 = max(a - piece.start, 0), u1 = min(b - piece.start, piece.length)
            let part = self.part(of: piece, from: u0, to: max(u0, u1))
            lo = CGPoint(x: min(lo.x, part.q0.x, part.q1.x), y: min(lo.y, part.q0.y, part.q1.y))
            hi = CGPoint(x: max(hi.x, part.q0.x, part.q1.x), y: max(hi.y, part.q0.y, part.q1.y))
            if part.degree >= 2 {
                lo = CGPoint(x: min(lo.x, part.q2.x), y: min(lo.y, part.q2.y))
                hi = CGPoint(x: max(hi.x, part.q2.x), y: max(hi.y, part.q2.y))
            }
            if part.degree == 3 {
                lo = CGPoint(x: min(lo.x, part.q3.x), y: min(lo.y, part.q3.y))
                hi = CGPoint(x: max(hi.x, part.q3.x), y: max(hi.y, part.q3.y))
            }
            if b <= piece.start + piece.length || k == pieces.count - 1 { break }
            k += 1
        }
        return !cull.misses(lo, hi)
    }

    /// Sends the stretch of the subpath between two distances to `sink`, starting with a move
    /// or continuing from the sink's current point.
    private mutating func emit<T: PathElementSink>(from a: CGFloat, to b: CGFloat, startsWithMove: Bool,
                                                   into sink: inout T) {
        var k = cursor
        while k < pieces.count - 1, pieces[k].start + pieces[k].length <= a { k += 1 }
        cursor = k
        var needsMove = startsWithMove
        while true {
            let piece = pieces[k]
            let u0 = max(a - piece.start, 0), u1 = min(b - piece.start, piece.length)
            if u1 > u0 || needsMove {
                emitPart(of: piece, from: u0, to: max(u0, u1), startsWithMove: needsMove, into: &sink)
                needsMove = false
            }
            if b <= piece.start + piece.length || k == pieces.count - 1 { break }
            k += 1
        }
    }

    private func emitPart<T: PathElementSink>(of piece: Piece, from u0: CGFloat, to u1: CGFloat, startsWithMove: Bool,
                                              into sink: inout T) {
        let part = self.part(of: piece, from: u0, to: u1)
        if startsWithMove { sink.moveTo(part.q0) }
        switch part.degree {
        case 1: sink.lineTo(part.q1)
        case 2: sink.quadCurveTo(part.q1, part.q2)
        default: sink.curveTo(part.q1, part.q2, part.q3)
        }
    }

    /// The stretch of a piece between two arc lengths from its start: a line (q0–q1) or a
    /// curve split from it (its first `degree + 1` points).
    private func part(of piece: Piece, from u0: CGFloat,
                      to u1: CGFloat) -> (degree: Int, q0: CGPoint, q1: CGPoint, q2: CGPoint, q3: CGPoint) {
        if piece.degree == 1 {
            let a = u0 <= 0 ? piece.p0 : Dasher.lerp(piece.p0, piece.p1, u0 / piece.length)
            let b = u1 >= piece.length ? piece.p1 : Dasher.lerp(piece.p0, piece.p1, u1 / piece.length)
            return (1, a, b, .zero, .zero)
        }
        let t0 = parameter(of: piece, at: u0), t1 = parameter(of: piece, at: u1)
        var (q0, q1, q2, q3) = (piece.p0, piece.p1, piece.p2, piece.p3)
        if piece.degree == 2 {
            if t1 < 1 { (q0, q1, q2) = Dasher.quadHead(q0, q1, q2, t1) }
            if t0 > 0 { (q0, q1, q2) = Dasher.quadTail(q0, q1, q2, t1 > 0 ? t0 / t1 : 0) }
            return (2, q0, q1, q2, .zero)
        }
        if t1 < 1 { (q0, q1, q2, q3) = Dasher.cubicHead(q0, q1, q2, q3, t1) }
        if t0 > 0 { (q0, q1, q2, q3) = Dasher.cubicTail(q0, q1, q2, q3, t1 > 0 ? t0 / t1 : 0) }
        return (3, q0, q1, q2, q3)
    }

    /// A zero-length dash at a distance along the subpath, with the path's direction there.
    private mutating func emitDot<T: PathElementSink>(at distance: CGFloat, into sink: inout T) {
        var k = cursor
        while k < pieces.count - 1, pieces[k].start + pieces[k].length <= distance { k += 1 }
        cursor = k
        let piece = pieces[k]
        let u = min(max(distance - piece.start, 0), piece.length)
        if piece.degree == 1 {
            let p = Dasher.lerp(piece.p0, piece.p1, u / piece.length)
            if let cull, cull.misses(p, p) { return }
            sink.addZeroLengthDash(at: p, direction: CGPoint(x: piece.p1.x - piece.p0.x, y: piece.p1.y - piece.p0.y))
            return
        }
        let t = parameter(of: piece, at: u)
        let p = Dasher.point(piece.degree, piece.p0, piece.p1, piece.p2, piece.p3, t)
        if let cull, cull.misses(p, p) { return }
        // The tangent is the direction of a tiny sub-curve's control polygon.
        let head = piece.degree == 2
            ? Dasher.quadTail(piece.p0, piece.p1, piece.p2, t).1
            : Dasher.cubicTail(piece.p0, piece.p1, piece.p2, piece.p3, t).1
        var direction = CGPoint(x: head.x - p.x, y: head.y - p.y)
        if direction == .zero {
            let q = Dasher.point(piece.degree, piece.p0, piece.p1, piece.p2, piece.p3, min(t + 1e-3, 1))
            let r = Dasher.point(piece.degree, piece.p0, piece.p1, piece.p2, piece.p3, max(t - 1e-3, 0))
            direction = CGPoint(x: q.x - r.x, y: q.y - r.y)
        }
        sink.addZeroLengthDash(at: p, direction: direction)
    }

    /// The curve parameter at arc length `u` from the piece's start, from its length table.
    private func parameter(of piece: Piece, at u: CGFloat) -> CGFloat {
        if u <= 0 { return 0 }
        if u >= piece.length { return 1 }
        var lo = piece.tableStart, hi = piece.tableEnd - 1   // table[lo].y ≤ u < table[hi].y
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid].y <= u { lo = mid } else { hi = mid }
        }
        let a = table[lo], b = table[hi]
        let f = b.y > a.y ? (u - a.y) / (b.y - a.y) : 0
        return a.x + f * (b.x - a.x)
    }

    // MARK: Curve geometry

    @inline(__always)
    static func lerp(_ a: CGPoint, _ b: CGPoint, _ t: CGFloat) -> CGPoint {
        CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    static func point(_ degree: Int, _ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
                      _ t: CGFloat) -> CGPoint {
        if degree == 2 {
            let u = 1 - t
            return CGPoint(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                           y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
        }
        return CGPath.cubicPoint(p0, p1, p2, p3, t)
    }

    /// The part of a quadratic for parameters [0, t] (de Casteljau).
    static func quadHead(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ t: CGFloat) -> (CGPoint, CGPoint, CGPoint) {
        let a = lerp(p0, p1, t), b = lerp(p1, p2, t)
        return (p0, a, lerp(a, b, t))
    }

    /// The part of a quadratic for parameters [t, 1] (de Casteljau).
    static func quadTail(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ t: CGFloat) -> (CGPoint, CGPoint, CGPoint) {
        let a = lerp(p0, p1, t), b = lerp(p1, p2, t)
        return (lerp(a, b, t), b, p2)
    }

    /// The part of a cubic for parameters [0, t] (de Casteljau).
    static func cubicHead(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
                          _ t: CGFloat) -> (CGPoint, CGPoint, CGPoint, CGPoint) {
        let a = lerp(p0, p1, t), b = lerp(p1, p2, t), c = lerp(p2, p3, t)
        let d = lerp(a, b, t), e = lerp(b, c, t)
        return (p0, a, d, lerp(d, e, t))
    }

    /// The part of a cubic for parameters [t, 1] (de Casteljau).
    static func cubicTail(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
                          _ t: CGFloat) -> (CGPoint, CGPoint, CGPoint, CGPoint) {
        let a = lerp(p0, p1, t), b = lerp(p1, p2, t), c = lerp(p2, p3, t)
        let d = lerp(a, b, t), e = lerp(b, c, t)
        return (lerp(d, e, t), e, c, p3)
    }
}
