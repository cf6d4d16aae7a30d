import Foundation

extension CGPath {
    /// The smallest rectangle containing every point of the path, control points included.
    /// `CGRect.null` for an empty path.
    public var boundingBox: CGRect {
        guard let first = points.first else { return .null }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The smallest rectangle containing the path's outline (curves at their true extrema, not
    /// their control points). `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        guard !points.isEmpty else { return .null }
        var box = BoundsAccumulator()
        var i = 0
        var last = CGPoint.zero
        for verb in verbs {
            switch verb {
            case .moveToPoint, .addLineToPoint:
                last = points[i]; box.add(last)
            case .addQuadCurveToPoint:
                let c = points[i], e = points[i + 1]
                box.add(e)
                let p0 = last
                func add(_ t: CGFloat) {
                    let u = 1 - t
                    box.add(CGPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * e.x,
                                    y: u * u * p0.y + 2 * u * t * c.y + t * t * e.y))
                }
                CGPath.quadExtrema(last.x, c.x, e.x, add)
                CGPath.quadExtrema(last.y, c.y, e.y, add)
                last = e
            case .addCurveToPoint:
                let c1 = points[i], c2 = points[i + 1], e = points[i + 2]
                box.add(e)
                let p0 = last
                func add(_ t: CGFloat) { box.add(CGPath.cubicPoint(p0, c1, c2, e, t)) }
                CGPath.cubicExtrema(last.x, c1.x, c2.x, e.x, add)
                CGPath.cubicExtrema(last.y, c1.y, c2.y, e.y, add)
                last = e
            case .closeSubpath:
                break
            }
            i += verb.pointCount
        }
        return box.rect
    }

    /// Whether `point` (transformed by `transform` first) is inside the path's filled area under
    /// `rule`. Open subpaths count as closed, as for filling.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        let p = point.applying(transform)
        guard p.x.isFinite, p.y.isFinite else { return false }
        var counter = WindingCounter(point: p)
        flatten(transform: .identity, tolerance: 0.01, into: &counter)
        counter.finishSubpath()
        switch rule {
        case .winding: return counter.winding != 0
        case .evenOdd: return counter.winding & 1 != 0
        }
    }

    /// The point at `t` on the cubic Bézier curve `p0`, `p1`, `p2`, `p3`.
    @_spi(Testing) public static func cubicPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// Calls `body` with each parameter in (0, 1) where a quadratic's coordinate has a zero
    /// derivative (a closure, not an array: the bounding box of every shape CrispSVG reads is
    /// taken, and the arrays cost more than the box).
    @inline(__always)
    static func quadExtrema(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ body: (CGFloat) -> Void) {
        let den = a - 2 * b + c
        guard den != 0 else { return }
        let t = (a - b) / den
        if t > 0 && t < 1 { body(t) }
    }

    /// Calls `body` with each parameter in (0, 1) where a cubic's coordinate has a zero
    /// derivative, in the order of the quadratic formula's + and − roots.
    @inline(__always)
    static func cubicExtrema(_ p0: CGFloat, _ p1: CGFloat, _ p2: CGFloat, _ p3: CGFloat, _ body: (CGFloat) -> Void) {
        // B'(t)/3 = A t² + B t + C
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = 2 * (p0 - 2 * p1 + p2)
        let c = p1 - p0
        @inline(__always) func root(_ t: CGFloat) { if t > 0 && t < 1 { body(t) } }
        if abs(a) < 1e-12 {
            if b != 0 { root(-c / b) }
        } else {
            let disc = b * b - 4 * a * c
            if disc >= 0 {
                let s = disc.squareRoot()
                root((-b + s) / (2 * a))
                root((-b - s) / (2 * a))
            }
        }
    }
}

/// Running min/max of points.
struct BoundsAccumulator {
    var minX = CGFloat.infinity, minY = CGFloat.infinity
    var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity

    mutating func add(_ p: CGPoint) {
        minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
    }

    var rect: CGRect {
        guard minX <= maxX, minY <= maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// Counts the signed crossings of a rightward ray from a point with a flattened outline.
struct WindingCounter: PathFlatteningSink {
    let point: CGPoint
    var winding = 0
    private var start = CGPoint.zero, current = CGPoint.zero, isOpen = false

    init(point: CGPoint) { self.point = point }

    mutating func moveTo(_ p: CGPoint) {
        finishSubpath()
        start = p; current = p; isOpen = true
    }

    mutating func lineTo(_ p: CGPoint) {
        cross(current, p)
        current = p
    }

    mutating func closeSubpath() {
        cross(current, start)
        current = start
    }

    /// Closes the subpath implicitly, as filling does.
    mutating func finishSubpath() {
        if isOpen { cross(current, start); current = start }
    }

    private mutating func cross(_ a: CGPoint, _ b: CGPoint) {
        if a.y <= point.y {
            if b.y > point.y, isLeft(a, b) > 0 { winding += 1 }
        } else if b.y <= point.y, isLeft(a, b) < 0 {
            winding -= 1
        }
    }

    private func isLeft(_ a: CGPoint, _ b: CGPoint) -> CGFloat {
        (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y)
    }
}
