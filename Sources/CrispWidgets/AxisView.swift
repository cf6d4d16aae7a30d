import CrispGraphics
import CrispUI
import Foundation

/// A graph axis drawn as ONE filled polygon: its shaft, the stub of the other axis that sticks
/// out past the origin, and its arrowhead, in a single closed outline.
///
/// Why one polygon: two shapes that meet edge to edge each anti-alias the shared edge, and the
/// two partial coverages composited one over the other leave a faint seam. One outline has no
/// inner edges, and its corners are sharp (a fill has miter joins by nature). The two axes of a
/// graph overlap in the square around the origin, which both cover fully, so they meet without
/// a seam either (the axis colour is opaque).
///
/// The origin sits at a fixed place in the bounds: for `.up`, `headHalfWidth` from the right
/// edge and half the thickness above the bottom; for `.right`, half the thickness from the left
/// edge and `headHalfWidth` below the top. Lay the view out with `frame(origin:end:)`.
public final class AxisView: View {
    /// Which way the arrow points.
    public enum Direction: Sendable { case up, right }

    /// The arrow's direction.
    public let direction: Direction
    /// Shaft thickness in points (default 2: with the origin on a whole point, the shaft's edges
    /// fall on pixel boundaries at every integer scale).
    public var thickness: CGFloat = 2 { didSet { setNeedsDisplay() } }
    /// Half the arrowhead's width, in points (default 5).
    public var headHalfWidth: CGFloat = 5 { didSet { setNeedsDisplay() } }
    /// The arrowhead's length, in points (default 9).
    public var headLength: CGFloat = 9 { didSet { setNeedsDisplay() } }
    /// How far the other axis' stub sticks out past the origin, in points (default 6).
    public var protrusion: CGFloat = 6 { didSet { setNeedsDisplay() } }
    /// The fill colour.
    public var color = CGColor(gray: 0.15, alpha: 1) { didSet { setNeedsDisplay() } }

    /// Creates an axis pointing `direction`.
    public init(direction: Direction) {
        self.direction = direction
        super.init()
    }

    /// The frame (superview coordinates) that puts the origin at `origin` and the arrow's tip
    /// at `end` (the top for `.up`, the right end for `.right`).
    public func frame(origin o: CGPoint, end: CGFloat) -> CGRect {
        let h = thickness / 2
        switch direction {
        case .up:
            return CGRect(x: o.x - h - protrusion, y: end, width: protrusion + h + headHalfWidth, height: o.y + h - end)
        case .right:
            return CGRect(x: o.x - h, y: o.y - headHalfWidth, width: end - (o.x - h), height: headHalfWidth + h + protrusion)
        }
    }

    /// The origin in the view's coordinates.
    public var origin: CGPoint {
        let b = bounds, h = thickness / 2
        switch direction {
        case .up: return CGPoint(x: b.maxX - headHalfWidth, y: b.maxY - h)
        case .right: return CGPoint(x: b.minX + h, y: b.minY + headHalfWidth)
        }
    }

    /// The outline, in the view's coordinates.
    public var outline: CGPath {
        let b = bounds, o = origin, h = thickness / 2, hw = headHalfWidth, hl = headLength
        let path = CGMutablePath()
        switch direction {
        case .up:
            path.addLines(between: [
                CGPoint(x: o.x - h, y: b.minY + hl), CGPoint(x: o.x - hw, y: b.minY + hl), CGPoint(x: o.x, y: b.minY),
                CGPoint(x: o.x + hw, y: b.minY + hl), CGPoint(x: o.x + h, y: b.minY + hl), CGPoint(x: o.x + h, y: o.y + h),
                CGPoint(x: b.minX, y: o.y + h), CGPoint(x: b.minX, y: o.y - h), CGPoint(x: o.x - h, y: o.y - h),
            ])
        case .right:
            path.addLines(between: [
                CGPoint(x: b.maxX - hl, y: o.y - h), CGPoint(x: b.maxX - hl, y: o.y - hw), CGPoint(x: b.maxX, y: o.y),
                CGPoint(x: b.maxX - hl, y: o.y + hw), CGPoint(x: b.maxX - hl, y: o.y + h), CGPoint(x: o.x + h, y: o.y + h),
                CGPoint(x: o.x + h, y: b.maxY), CGPoint(x: o.x - h, y: b.maxY), CGPoint(x: o.x - h, y: o.y - h),
            ])
        }
        path.closeSubpath()
        return path
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.setFillColor(color)
        ctx.addPath(outline)
        ctx.fillPath()
    }
}
