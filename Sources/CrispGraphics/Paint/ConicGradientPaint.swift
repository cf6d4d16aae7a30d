// The conic (sweep, angular) gradient's shader: a pixel's colour depends on its angle around a
// centre only. CoreGraphics draws it with `drawConicGradient(_:center:angle:)` (one full turn
// from `angle`); COLR v1's PaintSweepGradient maps an arc of angles (start…end, in degrees) to
// the colour line and extends it beyond the arc by padding, repeating or reflecting. Both are
// one affine map of the angle θ ∈ [0, 2π) measured from an origin φ: the table position is
// s = θ·k + o, then extended (pad clamps s to 0…1, repeat keeps its fraction, reflect folds it).
//
// The angle comes from a polynomial arctangent (`angle(_:_:)`): the ratio of the smaller to the
// larger coordinate in 0…1, an odd degree-13 polynomial there (error under 2.5·10⁻⁷ rad), then
// the octant's symmetries: a few multiplications and no call into libm (its speed against
// `atan2` was not measured). For a full turn the table position moves by at most
// 2.5·10⁻⁷ / 2π · 1023 ≈ 4·10⁻⁵ entries, so a pixel takes `atan2`'s entry except within that of
// a half-entry boundary (`ConicGradientTests.anglesMatchAtan2` holds the angle's bound).
//
// The centre's pixel and the seam at θ = 0 are not anti-aliased: the colour jumps at the seam
// by design (the gradient's last colour meets its first).

import Foundation

/// A conic gradient paint: the colour of a pixel is a table entry chosen by its angle around
/// `center` (user space), from `origin` in the positive angle direction of user space.
/// Immutable, a class for the reason `LinearGradientPaint` gives (the enum payload stays one word).
final class ConicGradientPaint {
    /// How positions beyond 0…1 are brought back into the table.
    enum Extend { case pad, `repeat`, reflect }

    let table: GradientTable
    /// Raster pixel → user space.
    let toUser: CGAffineTransform
    let center: CGPoint
    /// The angle (radians, user space) where θ = 0.
    let origin: Double
    /// s = θ·scale + offset, θ in radians from `origin`, 0 ≤ θ < 2π.
    let scale: Double, offset: Double
    let extend: Extend

    init(table: GradientTable, toUser: CGAffineTransform, center: CGPoint, origin: Double,
         scale: Double, offset: Double, extend: Extend) {
        self.table = table
        self.toUser = toUser
        self.center = center
        self.origin = origin
        self.scale = scale
        self.offset = offset
        self.extend = extend
    }

    /// arctan(y / x) in (−π, π], as `atan2`, within 2.5·10⁻⁷ radians; 0 at the centre itself.
    @inline(__always)
    static func angle(_ y: Double, _ x: Double) -> Double {
        let ax = abs(x), ay = abs(y)
        let hi = max(ax, ay), lo = min(ax, ay)
        guard hi > 0 else { return 0 }
        let z = lo / hi, z2 = z * z
        // arctan on [0, 1] as z·P(z²), P of degree 6 fitted to the minimax error (2.5·10⁻⁷).
        var r = 0.006_811_785_541_319_101
        r = r * z2 - 0.033_604_197_873_589_97
        r = r * z2 + 0.079_623_647_305_447_95
        r = r * z2 - 0.132_333_408_072_721_2
        r = r * z2 + 0.198_078_152_604_846_01
        r = r * z2 - 0.333_173_680_276_985_24
        r = r * z2 + 0.999_996_111_545_848_8
        r *= z
        if ay > ax { r = .pi / 2 - r }
        if x < 0 { r = .pi - r }
        return y < 0 ? -r : r
    }

    /// The table position of the user-space offset (dx, dy) from the centre, extended into 0…1.
    @inline(__always)
    func position(_ dx: Double, _ dy: Double) -> Double {
        var theta = ConicGradientPaint.angle(dy, dx) - origin
        guard theta.isFinite else { return 0 }
        theta -= (theta * (0.5 / .pi)).rounded(.down) * (2 * .pi)
        if theta >= 2 * .pi { theta -= 2 * .pi }
        if theta < 0 { theta = 0 }
        let s = theta * scale + offset
        switch extend {
        case .pad:
            return min(max(s, 0), 1)
        case .repeat:
            let f = s - s.rounded(.down)
            return f.isFinite ? f : 0
        case .reflect:
            let m = s - (s * 0.5).rounded(.down) * 2
            guard m.isFinite else { return 0 }
            return m > 1 ? 2 - m : m
        }
    }

    /// Writes the colours of pixels `x..<x+count` of raster row `y`.
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let t = toUser, entries = table.entries
        let top = Double(GradientTable.size - 1)
        // Each pixel from its own column (no stepping), so that its colour does not depend on
        // where its span starts: clip masks and path coverage split rows differently.
        let py = Double(y) + 0.5
        let rowX = Double(t.c) * py + Double(t.tx) - Double(center.x)
        let rowY = Double(t.d) * py + Double(t.ty) - Double(center.y)
        let a = Double(t.a), b = Double(t.b)
        for i in 0..<count {
            let px = Double(x + i) + 0.5
            let s = position(a * px + rowX, b * px + rowY)
            out[i] = entries[Int(s * top + 0.5)]
        }
    }
}
