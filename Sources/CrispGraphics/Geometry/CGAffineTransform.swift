import Foundation

/// An affine transformation matrix for 2D drawing, laid out as CoreGraphics lays it out.
///
/// The matrix maps a point `(x, y)` to
/// ```
/// x' = a·x + c·y + tx
/// y' = b·x + d·y + ty
/// ```
/// i.e. it is the row-vector matrix `[a b 0; c d 0; tx ty 1]` applied as `[x y 1] × M`.
/// Composition follows CoreGraphics: `t1.concatenating(t2)` applies `t1` first, then `t2`.
public struct CGAffineTransform: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The x scale: how much x' grows with x.
    public var a: CGFloat
    /// How much y' grows with x.
    public var b: CGFloat
    /// How much x' grows with y.
    public var c: CGFloat
    /// The y scale: how much y' grows with y.
    public var d: CGFloat
    /// The x translation.
    public var tx: CGFloat
    /// The y translation.
    public var ty: CGFloat

    /// Creates a transform from its six coefficients.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// Creates a transform from its six coefficients, unlabelled as in `CGAffineTransformMake`.
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// The identity transform.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

    /// The identity transform.
    public static let identity = CGAffineTransform()

    /// A transform that translates by `(tx, ty)`.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A transform that scales by `sx` horizontally and `sy` vertically.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A transform that rotates by `angle` radians.
    ///
    /// Positive angles turn counter-clockwise in the default y-up coordinate system
    /// (clockwise on screen in a flipped, y-down view context), as in CoreGraphics.
    /// Multiples of π/2 produce exact zeros and ones, so rotated rectangles stay pixel-aligned.
    public init(rotationAngle angle: CGFloat) {
        let (s, c) = CGAffineTransform.exactSinCos(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// Whether this is the identity transform.
    public var isIdentity: Bool { self == .identity }

    /// The transform that applies `self`, then `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c,
            b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c,
            d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx,
            ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// `self` preceded by a translation (the translation happens in the untransformed space).
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// `self` preceded by a scale.
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// `self` preceded by a rotation of `angle` radians.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// The determinant `a·d − b·c`; zero for a singular (non-invertible) transform.
    public var determinant: CGFloat { a * d - b * c }

    /// The inverse transform. Like CoreGraphics, a singular transform returns itself unchanged.
    public func inverted() -> CGAffineTransform {
        let det = determinant
        guard det != 0, det.isFinite else { return self }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return CGAffineTransform(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic),
            ty: -(tx * ib + ty * id))
    }

    public var description: String { "CGAffineTransform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }

    // MARK: Internal helpers

    /// Sine and cosine that are exact at multiples of π/2 (Foundation's are off by ~1e-16).
    static func exactSinCos(_ angle: CGFloat) -> (sin: CGFloat, cos: CGFloat) {
        let quarter = angle / (.pi / 2)
        let rounded = quarter.rounded()
        if abs(quarter - rounded) < 1e-12, abs(rounded) < 1e15 {
            switch Int(rounded) & 3 {
            case 0: return (0, 1)
            case 1: return (1, 0)
            case 2: return (0, -1)
            default: return (-1, 0)
            }
        }
        return (sin(angle), cos(angle))
    }

    /// Applies the transform to a point given as two coordinates.
    @inline(__always)
    func apply(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
        CGPoint(x: a * x + c * y + tx, y: b * x + d * y + ty)
    }

    /// Whether the transform keeps axis-aligned rectangles axis-aligned (no rotation or skew,
    /// or an exact quarter turn).
    @_spi(Testing) public var isRectilinear: Bool { (b == 0 && c == 0) || (a == 0 && d == 0) }

    /// The largest factor by which the transform stretches any vector (the larger singular value).
    @_spi(Testing) public var maximumScale: CGFloat {
        let p = a * a + b * b, q = c * c + d * d, r = a * c + b * d
        let mean = (p + q) / 2
        let diff = (p - q) / 2
        return sqrt(mean + sqrt(diff * diff + r * r))
    }

    /// The geometric-mean scale, `sqrt(|det|)`: how much the transform scales areas, as a length.
    @_spi(Testing) public var areaScale: CGFloat { sqrt(abs(determinant)) }
}

extension CGPoint {
    /// The point transformed by `t`.
    public func applying(_ t: CGAffineTransform) -> CGPoint { t.apply(x, y) }
}

extension CGSize {
    /// The size transformed by `t` as a vector (translation ignored); components may be negative.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The smallest rectangle containing the four transformed corners of this rectangle.
    ///
    /// As in CoreGraphics, the rectangle is standardized first, and a null rectangle stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        let r = standardized
        let p1 = t.apply(r.minX, r.minY), p2 = t.apply(r.maxX, r.minY)
        let p3 = t.apply(r.minX, r.maxY), p4 = t.apply(r.maxX, r.maxY)
        let minX = min(p1.x, p2.x, p3.x, p4.x), maxX = max(p1.x, p2.x, p3.x, p4.x)
        let minY = min(p1.y, p2.y, p3.y, p4.y), maxY = max(p1.y, p2.y, p3.y, p4.y)
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
