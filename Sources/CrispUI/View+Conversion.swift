import Foundation

// Point conversion. Views have no transforms, so converting between two views
// adds up the translations `frame.origin - bounds.origin` on the way to the root and back.

extension View {
    /// The offset of this view's coordinate system from its root's (the window's, when in one).
    var offsetFromRoot: CGPoint {
        var x: CGFloat = 0, y: CGFloat = 0
        var v: View? = self
        while let current = v, let parent = current.superview {
            x += current.frame.minX - current.bounds.minX
            y += current.frame.minY - current.bounds.minY
            v = parent
        }
        return CGPoint(x: x, y: y)
    }

    /// The root of the view's tree (the window, when in one).
    var root: View {
        var v = self
        while let parent = v.superview { v = parent }
        return v
    }

    /// Converts a point from this view's coordinates to `view`'s (nil: the window's).
    ///
    /// - Precondition: both views are in the same tree.
    public func convert(_ point: CGPoint, to view: View?) -> CGPoint {
        let target = view ?? root
        precondition(target.root === root, "convert(_:to:) between views of different trees")
        let a = offsetFromRoot, b = target.offsetFromRoot
        return CGPoint(x: point.x + a.x - b.x, y: point.y + a.y - b.y)
    }

    /// Converts a point from `view`'s coordinates (nil: the window's) to this view's.
    public func convert(_ point: CGPoint, from view: View?) -> CGPoint {
        (view ?? root).convert(point, to: self)
    }

    /// Converts a rectangle from this view's coordinates to `view`'s (nil: the window's).
    public func convert(_ rect: CGRect, to view: View?) -> CGRect {
        CGRect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    /// Converts a rectangle from `view`'s coordinates (nil: the window's) to this view's.
    public func convert(_ rect: CGRect, from view: View?) -> CGRect {
        CGRect(origin: convert(rect.origin, from: view), size: rect.size)
    }
}
