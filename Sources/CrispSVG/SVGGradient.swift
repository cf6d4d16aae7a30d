import CrispGraphics
import Foundation

/// A linear or radial gradient paint server, with `href` inheritance already resolved.
///
/// Coordinates are in `units`: fractions of the painted element's bounding box
/// (`objectBoundingBox`, the default) or user units of the painted element
/// (`userSpaceOnUse`, with percentages of the viewport already resolved). `transform`
/// (`gradientTransform`) maps gradient space into that space.
public struct SVGGradient: Equatable, Sendable {
    /// Which coordinate system the gradient's geometry is in.
    public enum Units: Equatable, Sendable { case userSpaceOnUse, objectBoundingBox }
    /// What happens beyond the first and last stop.
    public enum Spread: Equatable, Sendable { case pad, reflect, repeating }
    /// The gradient's geometry.
    public enum Kind: Equatable, Sendable {
        /// From (x1, y1) to (x2, y2).
        case linear(x1: CGFloat, y1: CGFloat, x2: CGFloat, y2: CGFloat)
        /// From the focal circle (fx, fy, fr) to the circle (cx, cy, r).
        case radial(cx: CGFloat, cy: CGFloat, r: CGFloat, fx: CGFloat, fy: CGFloat, fr: CGFloat)
    }
    /// A colour stop: offset in 0…1 (non-decreasing along the list) and colour with
    /// `stop-opacity` folded into its alpha.
    public struct Stop: Equatable, Sendable {
        public var offset: CGFloat
        public var color: SVGColor
    }

    public var kind: Kind
    public var units: Units
    public var transform: CGAffineTransform
    public var spread: Spread
    public var stops: [Stop]
    /// The element's id.
    public var id: String
}
