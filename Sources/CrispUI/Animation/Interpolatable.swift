import CrispGraphics
import Foundation

/// A value an animation can move between two ends.
///
/// `fraction` is 0 at `self` and 1 at `other`; implementations return exactly `self` at 0 and
/// exactly `other` at 1, and extrapolate outside 0…1 (a spring overshoots), except where the
/// result would be meaningless (colour components are clamped).
public protocol Interpolatable {
    /// The value `fraction` of the way from `self` to `other`.
    func interpolated(to other: Self, fraction: CGFloat) -> Self
}

/// `a·(1 − f) + b·f`: exact at both ends (`a + (b − a)·f` is not at f = 1).
@inline(__always)
func mix(_ a: CGFloat, _ b: CGFloat, _ f: CGFloat) -> CGFloat { a * (1 - f) + b * f }

extension CGFloat: Interpolatable {
    /// Linear interpolation.
    public func interpolated(to other: CGFloat, fraction: CGFloat) -> CGFloat { mix(self, other, fraction) }
}

extension Double: Interpolatable {
    /// Linear interpolation.
    public func interpolated(to other: Double, fraction: CGFloat) -> Double {
        Double(mix(CGFloat(self), CGFloat(other), fraction))
    }
}

extension CGPoint: Interpolatable {
    /// Linear interpolation of x and y.
    public func interpolated(to other: CGPoint, fraction f: CGFloat) -> CGPoint {
        CGPoint(x: mix(x, other.x, f), y: mix(y, other.y, f))
    }
}

extension CGSize: Interpolatable {
    /// Linear interpolation of width and height.
    public func interpolated(to other: CGSize, fraction f: CGFloat) -> CGSize {
        CGSize(width: mix(width, other.width, f), height: mix(height, other.height, f))
    }
}

extension CGRect: Interpolatable {
    /// Linear interpolation of origin and size.
    public func interpolated(to other: CGRect, fraction f: CGFloat) -> CGRect {
        CGRect(origin: origin.interpolated(to: other.origin, fraction: f), size: size.interpolated(to: other.size, fraction: f))
    }
}

extension CGAffineTransform: Interpolatable {
    /// Linear interpolation of the six coefficients.
    ///
    /// Halfway between two rotations this shrinks (the coefficients of 0° and 90° average to a
    /// scale of √½ at 45°); to turn something, animate its angle as a `CGFloat` and build the
    /// rotation from it.
    public func interpolated(to o: CGAffineTransform, fraction f: CGFloat) -> CGAffineTransform {
        CGAffineTransform(a: mix(a, o.a, f), b: mix(b, o.b, f), c: mix(c, o.c, f),
                          d: mix(d, o.d, f), tx: mix(tx, o.tx, f), ty: mix(ty, o.ty, f))
    }
}

extension CGColor: Interpolatable {
    /// Interpolation of premultiplied sRGB components: the result is an sRGB colour (or a grey,
    /// when both ends are grey) with components clamped to 0…1.
    ///
    /// Premultiplied, because that is what the compositor blends: a colour fading between two
    /// values looks exactly like the cross-dissolve of a shape painted in each, and a fade to
    /// or from `.clear` (transparent black) keeps the visible colour's hue instead of darkening
    /// through it, as straight-alpha interpolation would. sRGB rather than linear light, because
    /// the renderer composites in sRGB too: a linear-light fade would not match the pixels of a
    /// cross-dissolve, and its midpoint looks too bright on these (sRGB-encoded) screens.
    public func interpolated(to other: CGColor, fraction f: CGFloat) -> CGColor {
        if f == 0 { return self }
        if f == 1 { return other }
        let p = premultipliedComponents, q = other.premultipliedComponents
        let alpha = clampUnit(mix(p.alpha, q.alpha, f))
        let count = max(p.color.count, q.color.count)
        func component(_ c: [CGFloat], _ i: Int) -> CGFloat { c.count == 1 ? c[0] : c[i] }
        let values = (0..<count).map { i in
            alpha > 0 ? clampUnit(mix(component(p.color, i), component(q.color, i), f) / alpha) : 0
        }
        if count == 1 { return CGColor(gray: values[0], alpha: alpha) }
        return CGColor(red: values[0], green: values[1], blue: values[2], alpha: alpha)
    }

    /// The colour components multiplied by alpha (one for grey, three for RGB), and alpha;
    /// each clamped to 0…1.
    private var premultipliedComponents: (color: [CGFloat], alpha: CGFloat) {
        guard let c = components, !c.isEmpty else { return ([0], 1) }
        let alpha = c.count > 1 ? clampUnit(c[c.count - 1]) : 1
        let color = c.count >= 4 ? Array(c[0..<3]) : [c[0]]
        return (color.map { clampUnit($0) * alpha }, alpha)
    }
}

/// `v` clamped to 0…1, NaN as 0.
private func clampUnit(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
