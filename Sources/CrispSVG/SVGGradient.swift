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
    public enum Units: Equatable, Sendable {
        /// User units of the painted element (percentages of the viewport resolved).
        case userSpaceOnUse
        /// Fractions of the painted element's bounding box (the default).
        case objectBoundingBox
    }
    /// What happens beyond the first and last stop.
    public enum Spread: Equatable, Sendable {
        /// The end colours continue.
        case pad
        /// The gradient repeats mirrored.
        case reflect
        /// The gradient repeats (`spreadMethod="repeat"`).
        case repeating
    }
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
        /// Where the stop lies, in 0…1.
        public var offset: CGFloat
        /// The stop's colour, `stop-opacity` folded into its alpha.
        public var color: SVGColor
    }

    /// Linear or radial, with its geometry.
    public var kind: Kind
    /// The coordinate system of the geometry (`gradientUnits`).
    public var units: Units
    /// `gradientTransform`: maps gradient space into `units`' space.
    public var transform: CGAffineTransform
    /// What happens beyond the first and last stop (`spreadMethod`).
    public var spread: Spread
    /// The colour stops, offsets non-decreasing.
    public var stops: [Stop]
    /// The element's id.
    public var id: String
}
