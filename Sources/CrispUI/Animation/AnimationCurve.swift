import Foundation

/// How an animation's progress follows time: UIKit's timing curves.
///
/// The three eased curves are Core Animation's cubic Béziers from (0, 0) to (1, 1):
/// ```
/// easeInOut  (0.42, 0) (0.58, 1)
/// easeIn     (0.42, 0) (1, 1)
/// easeOut    (0, 0)    (0.58, 1)
/// ```
public enum AnimationCurve: Sendable {
    /// Slow at both ends (UIKit's default).
    case easeInOut
    /// Slow at the start.
    case easeIn
    /// Slow at the end.
    case easeOut
    /// Progress proportional to time.
    case linear

    /// The progress (0…1) at `fraction` (0…1) of the duration; values outside 0…1 are clamped.
    ///
    /// The Bézier's x(u) = fraction is solved for u by Newton's method (bisection when the
    /// slope is too flat), to about 1e-7; the result is y(u). Exactly 0 at 0 and 1 at 1.
    public func value(at fraction: CGFloat) -> CGFloat {
        let t = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let (x1, y1, x2, y2): (CGFloat, CGFloat, CGFloat, CGFloat)
        switch self {
        case .linear: return t
        case .easeInOut: (x1, y1, x2, y2) = (0.42, 0, 0.58, 1)
        case .easeIn: (x1, y1, x2, y2) = (0.42, 0, 1, 1)
        case .easeOut: (x1, y1, x2, y2) = (0, 0, 0.58, 1)
        }
        if t == 0 || t == 1 { return t }
        let u = AnimationCurve.solve(t, x1, x2)
        return AnimationCurve.bezier(u, y1, y2)
    }

    /// One coordinate of the Bézier with end points 0 and 1 and control values `p1`, `p2` at `u`.
    private static func bezier(_ u: CGFloat, _ p1: CGFloat, _ p2: CGFloat) -> CGFloat {
        let v = 1 - u
        return 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u
    }

    /// The parameter u at which the x coordinate equals `x` (x is monotonic for these curves).
    private static func solve(_ x: CGFloat, _ x1: CGFloat, _ x2: CGFloat) -> CGFloat {
        var u = x
        for _ in 0..<8 {
            let error = bezier(u, x1, x2) - x
            if abs(error) < 1e-7 { return u }
            let v = 1 - u
            let slope = 3 * v * v * x1 + 6 * v * u * (x2 - x1) + 3 * u * u * (1 - x2)
            if abs(slope) < 1e-6 { break }
            u -= error / slope
        }
        var lo: CGFloat = 0, hi: CGFloat = 1
        u = x
        for _ in 0..<40 {
            let value = bezier(u, x1, x2)
            if abs(value - x) < 1e-7 { break }
            if value < x { lo = u } else { hi = u }
            u = (lo + hi) / 2
        }
        return u
    }
}
