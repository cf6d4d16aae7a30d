import Foundation

// Arcs become cubic Béziers, one per sweep of at most a quarter turn. For a circular arc of
// sweep θ the control points lie on the end tangents at distance k·r from the ends, with
//     k = 4/3 · tan(θ/4)
// which puts the curve's midpoint exactly on the circle (radial error < 0.03% of r for θ = π/2).

extension CGPath {
    /// The handle length of a quarter circle of radius 1: 4/3·(√2 − 1).
    static let quarterArcHandle: CGFloat = 0.552_284_749_830_793_4
}

extension CGMutablePath {
    /// Adds an arc of a circle given by its centre, radius and start and end angles.
    ///
    /// Angles are in radians from the positive x axis. `clockwise` is meant in the y-up
    /// default coordinate space (it looks counter-clockwise in a flipped view). If there is a
    /// current point, a straight line joins it to the arc's start; otherwise the arc starts a
    /// new subpath.
    ///
    /// The sweep is normalized like CoreGraphics does: going counter-clockwise, an end angle
    /// below the start angle is advanced by whole turns, and a sweep of more than one turn is a
    /// full circle; likewise in the clockwise direction. A difference of a whole, non-zero number
    /// of turns is a full circle in the requested direction; equal angles add only the start point.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool, transform: CGAffineTransform = .identity) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite,
              startAngle.isFinite, endAngle.isFinite else { return }
        let twoPi = 2 * CGFloat.pi
        var sweep = endAngle - startAngle
        if clockwise {
            // A positive difference goes round the other way: reduce it to (−2π, 0], except that a
            // whole number of turns is a full circle (`addArc(…, 0, 2π, clockwise: true)` is
            // the common iOS idiom for a circle).
            if sweep > 0 {
                let r = fmod(sweep, twoPi)
                sweep = r == 0 ? -twoPi : r - twoPi
            }
            sweep = max(sweep, -twoPi)
        } else {
            if sweep < 0 {
                let r = fmod(sweep, twoPi)
                sweep = r == 0 ? twoPi : r + twoPi
            }
            sweep = min(sweep, twoPi)
        }
        addArcSegments(center: center, radius: abs(radius), startAngle: startAngle, sweep: sweep,
                       transform: transform)
    }

    /// Adds an arc that starts at `startAngle` and sweeps by `delta` radians (positive is
    /// counter-clockwise in y-up space). Sweeps beyond a full turn go round more than once.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite,
              startAngle.isFinite, delta.isFinite else { return }
        // Beyond a few turns the drawing is identical; cap the work.
        let sweep = max(min(delta, 8 * .pi), -8 * .pi)
        addArcSegments(center: center, radius: abs(radius), startAngle: startAngle, sweep: sweep,
                       transform: transform)
    }

    /// Adds an arc of `radius` tangent to the line from the current point to `tangent1End` and to
    /// the line from `tangent1End` to `tangent2End` (PostScript `arct`).
    ///
    /// A straight line joins the current point to the arc's first tangent point. When the three
    /// points are collinear or the radius is zero, a line to `tangent1End` is added instead.
    /// Without a current point, the call is ignored as in CoreGraphics.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        guard subpathStartIndex >= 0 else { return }
        // Work in user space: the current point is stored transformed, so map it back.
        let inverse = transform.inverted()
        let p0 = currentPoint.applying(inverse), p1 = tangent1End, p2 = tangent2End
        let d0x = p0.x - p1.x, d0y = p0.y - p1.y, d2x = p2.x - p1.x, d2y = p2.y - p1.y
        let l0 = hypot(d0x, d0y), l2 = hypot(d2x, d2y)
        let cross = d0x * d2y - d0y * d2x
        guard radius > 0, radius.isFinite, l0 > 0, l2 > 0, abs(cross) > 1e-12 * l0 * l2 else {
            addLine(to: p1, transform: transform)
            return
        }
        let u0x = d0x / l0, u0y = d0y / l0, u2x = d2x / l2, u2y = d2y / l2
        // Half the angle between the two rays from the corner.
        let cosTheta = max(-1, min(1, u0x * u2x + u0y * u2y))
        let half = acos(cosTheta) / 2
        let tangentDistance = radius / tan(half)
        let t0 = CGPoint(x: p1.x + u0x * tangentDistance, y: p1.y + u0y * tangentDistance)
        let t2 = CGPoint(x: p1.x + u2x * tangentDistance, y: p1.y + u2y * tangentDistance)
        // Centre lies on the bisector at distance r / sin(half).
        let bx = u0x + u2x, by = u0y + u2y, bl = hypot(bx, by)
        let centreDistance = radius / sin(half)
        let c = CGPoint(x: p1.x + bx / bl * centreDistance, y: p1.y + by / bl * centreDistance)
        let a0 = atan2(t0.y - c.y, t0.x - c.x), a2 = atan2(t2.y - c.y, t2.x - c.x)
        var sweep = a2 - a0
        // The arc is the short way round (less than π).
        while sweep > .pi { sweep -= 2 * .pi }
        while sweep < -.pi { sweep += 2 * .pi }
        addArcSegments(center: c, radius: radius, startAngle: a0, sweep: sweep, transform: transform)
    }

    /// Adds cubic segments approximating a circular arc; joins the current point with a line
    /// (or moves, without one).
    func addArcSegments(center: CGPoint, radius: CGFloat, startAngle: CGFloat, sweep: CGFloat,
                        transform: CGAffineTransform) {
        func point(_ angle: CGFloat) -> CGPoint {
            let (s, c) = CGAffineTransform.exactSinCos(angle)
            return CGPoint(x: center.x + radius * c, y: center.y + radius * s)
        }
        let start = point(startAngle)
        if subpathStartIndex >= 0 { addLine(to: start, transform: transform) } else { move(to: start, transform: transform) }
        guard sweep != 0, sweep.isFinite, radius > 0 else { return }
        let segments = max(1, Int((abs(sweep) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / CGFloat(segments)
        let k = 4.0 / 3.0 * tan(step / 4) * radius
        var angle = startAngle
        for _ in 0..<segments {
            let next = angle + step
            let (s0, c0) = CGAffineTransform.exactSinCos(angle)
            let (s1, c1) = CGAffineTransform.exactSinCos(next)
            let p0 = CGPoint(x: center.x + radius * c0, y: center.y + radius * s0)
            let p3 = CGPoint(x: center.x + radius * c1, y: center.y + radius * s1)
            let c1p = CGPoint(x: p0.x - k * s0, y: p0.y + k * c0)
            let c2p = CGPoint(x: p3.x + k * s1, y: p3.y - k * c1)
            addCurve(to: p3, control1: c1p, control2: c2p, transform: transform)
            angle = next
        }
    }
}
