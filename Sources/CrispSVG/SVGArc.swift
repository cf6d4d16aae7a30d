import CrispGraphics
import Foundation

// SVG's elliptical arc (endpoint parameterization) as cubic Béziers, following the SVG
// implementation notes (SVG 1.1 appendix F.6.5–F.6.6, SVG 2 §B.2.4–B.2.5):
//   1. rx or ry zero: a straight line; equal endpoints: nothing.
//   2. Take |rx|, |ry|; rotate the half-chord into the ellipse's frame (x1', y1').
//   3. Λ = x1'²/rx² + y1'²/ry²; if Λ > 1 the radii are too small and are scaled by √Λ.
//   4. Centre from the closed form, the sign chosen by large-arc ≠ sweep; start angle θ1 and
//      sweep Δθ from the vectors to the endpoints, Δθ adjusted to the sweep flag's direction.
//   5. Split Δθ into pieces of at most 90° and approximate each by a cubic with handles of
//      length (4/3)·tan(δ/4) — radial error below 3·10⁻⁴ of the radius for 90°.
// The last piece ends exactly on the given endpoint (no drift from the trigonometry).

/// An SVG elliptical arc segment from its endpoints and flags.
struct SVGArc {
    var from: CGPoint
    var to: CGPoint
    var radiusX: CGFloat
    var radiusY: CGFloat
    var rotationDegrees: CGFloat
    var largeArc: Bool
    var sweep: Bool

    /// Appends the arc to `path` (whose current point is `from`).
    func append(to path: CGMutablePath) {
        if from == to { return }
        var rx = abs(radiusX), ry = abs(radiusY)
        guard rx > 0, ry > 0, rx.isFinite, ry.isFinite else {
            path.addLine(to: to)
            return
        }
        let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (from.x - to.x) / 2, dy = (from.y - to.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let s = lambda.squareRoot()
            rx *= s
            ry *= s
        }
        let rx2 = rx * rx, ry2 = ry * ry
        let numerator = rx2 * ry2 - rx2 * y1 * y1 - ry2 * x1 * x1
        let denominator = rx2 * y1 * y1 + ry2 * x1 * x1
        var coefficient = denominator > 0 ? (max(numerator, 0) / denominator).squareRoot() : 0
        if largeArc == sweep { coefficient = -coefficient }
        let cxp = coefficient * rx * y1 / ry
        let cyp = -coefficient * ry * x1 / rx
        let cx = cosPhi * cxp - sinPhi * cyp + (from.x + to.x) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (from.y + to.y) / 2
        guard cx.isFinite, cy.isFinite else {
            path.addLine(to: to)
            return
        }

        func angle(_ ux: CGFloat, _ uy: CGFloat, _ vx: CGFloat, _ vy: CGFloat) -> CGFloat {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let ux = (x1 - cxp) / rx, uy = (y1 - cyp) / ry
        let vx = (-x1 - cxp) / rx, vy = (-y1 - cyp) / ry
        let theta1 = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }

        let segments = max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / CGFloat(segments)
        let handle = 4 / 3 * tan(step / 4)
        // Maps a point of the unit circle, in the ellipse's frame, to user space.
        func map(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
            let ex = rx * x, ey = ry * y
            return CGPoint(x: cosPhi * ex - sinPhi * ey + cx, y: sinPhi * ex + cosPhi * ey + cy)
        }
        var t = theta1
        var cosT = cos(t), sinT = sin(t)
        for k in 0..<segments {
            let t2 = t + step
            let cos2 = cos(t2), sin2 = sin(t2)
            let c1 = map(cosT - handle * sinT, sinT + handle * cosT)
            let c2 = map(cos2 + handle * sin2, sin2 - handle * cos2)
            let end = k == segments - 1 ? to : map(cos2, sin2)
            path.addCurve(to: end, control1: c1, control2: c2)
            t = t2
            cosT = cos2
            sinT = sin2
        }
    }
}
