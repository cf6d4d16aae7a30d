import CrispGraphics
import Foundation

// Coordinate conversion. A view's coordinates map to its superview's by
// `transformToSuperview`: a translation of `frame.origin - bounds.origin` when `transform` is
// the identity (kept as exact additions, so pixel-aligned views stay pixel-aligned), otherwise
// bounds centre → origin, `transform`, origin → frame centre. Conversion between two views goes
// through their common root.

extension View {
    /// The affine map from this view's coordinates to its superview's.
    var transformToSuperview: CGAffineTransform {
        let f = frame, b = bounds
        if transform.isIdentity { return CGAffineTransform(translationX: f.minX - b.minX, y: f.minY - b.minY) }
        return CGAffineTransform(translationX: -b.midX, y: -b.midY)
            .concatenating(transform)
            .concatenating(CGAffineTransform(translationX: f.midX, y: f.midY))
    }

    /// The area the view covers in its superview's coordinates: the frame, or the bounding box
    /// of the transformed bounds.
    var frameInSuperview: CGRect { transform.isIdentity ? frame : bounds.applying(transformToSuperview) }

    /// The area the view paints in its own coordinates: the bounds and, when its layer casts a
    /// shadow, where the shadow can reach.
    var visibleBounds: CGRect {
        let b = bounds
        guard let layer = storedLayer, layer.castsShadow else { return b }
        let caster = layer.shadowPath?.boundingBoxOfPath ?? b
        guard !caster.isNull, caster.minX.isFinite, caster.maxX.isFinite, caster.minY.isFinite, caster.maxY.isFinite else { return b }
        return b.union(layer.shadowArea(of: caster))
    }

    /// The area the view paints in its superview's coordinates (`visibleBounds` there).
    var visibleFrameInSuperview: CGRect {
        guard let layer = storedLayer, layer.castsShadow else { return frameInSuperview }
        return visibleBounds.applying(transformToSuperview)
    }

    /// `point` (superview coordinates) in this view's coordinates.
    func convertFromSuperview(_ point: CGPoint) -> CGPoint {
        if transform.isIdentity {
            return CGPoint(x: point.x - frame.minX + bounds.minX, y: point.y - frame.minY + bounds.minY)
        }
        return point.applying(transformToSuperview.inverted())
    }

    /// Whether this view or an ancestor below the root has a transform other than the identity.
    private var isTransformedToRoot: Bool {
        var v: View? = self
        while let current = v, current.superview != nil {
            if !current.transform.isIdentity { return true }
            v = current.superview
        }
        return false
    }

    /// The offset of this view's coordinate system from its root's, when no transform is on the way.
    private var offsetFromRoot: CGPoint {
        var x: CGFloat = 0, y: CGFloat = 0
        var v: View? = self
        while let current = v, let parent = current.superview {
            x += current.frame.minX - current.bounds.minX
            y += current.frame.minY - current.bounds.minY
            v = parent
        }
        return CGPoint(x: x, y: y)
    }

    /// The affine map from this view's coordinates to its root's.
    var transformToRoot: CGAffineTransform {
        var t = CGAffineTransform.identity
        var v: View? = self
        while let current = v, current.superview != nil {
            t = t.concatenating(current.transformToSuperview)
            v = current.superview
        }
        return t
    }

    /// The root of the view's tree (the window, when in one).
    var root: View {
        var v = self
        while let parent = v.superview { v = parent }
        return v
    }

    /// The map from this view's coordinates to `target`'s, or nil when both are untransformed
    /// translations of their root (then `offsetFromRoot` is exact and cheaper).
    private func transform(to target: View) -> CGAffineTransform? {
        guard isTransformedToRoot || target.isTransformedToRoot else { return nil }
        return transformToRoot.concatenating(target.transformToRoot.inverted())
    }

    /// Converts a point from this view's coordinates to `view`'s (nil: the window's).
    ///
    /// - Precondition: both views are in the same tree.
    public func convert(_ point: CGPoint, to view: View?) -> CGPoint {
        let target = view ?? root
        precondition(target.root === root, "convert(_:to:) between views of different trees")
        if let t = transform(to: target) { return point.applying(t) }
        let a = offsetFromRoot, b = target.offsetFromRoot
        return CGPoint(x: point.x + a.x - b.x, y: point.y + a.y - b.y)
    }

    /// Converts a point from `view`'s coordinates (nil: the window's) to this view's.
    public func convert(_ point: CGPoint, from view: View?) -> CGPoint {
        (view ?? root).convert(point, to: self)
    }

    /// Converts a rectangle from this view's coordinates to `view`'s (nil: the window's); with
    /// a rotation or skew on the way, the bounding box of the converted corners.
    public func convert(_ rect: CGRect, to view: View?) -> CGRect {
        let target = view ?? root
        precondition(target.root === root, "convert(_:to:) between views of different trees")
        if let t = transform(to: target) { return rect.applying(t) }
        return CGRect(origin: convert(rect.origin, to: target), size: rect.size)
    }

    /// Converts a rectangle from `view`'s coordinates (nil: the window's) to this view's.
    public func convert(_ rect: CGRect, from view: View?) -> CGRect {
        (view ?? root).convert(rect, to: self)
    }
}
